import type pg from 'pg';

/** How long after losing its connection a listener tries again, doubling up to the cap. */
const RELISTEN_MS = { first: 250, max: 5_000 };

export interface ChannelListenerOptions {
  /** Called with each notification's payload. */
  onNotify: (payload: string) => void;
  /**
   * Called once listening again after a lost connection: notifications sent meanwhile are gone, so
   * the owner catches up by reading the state itself.
   */
  onRelisten?: () => void;
  log: { warn: (object: object, message: string) => void };
}

/**
 * A pooled connection of its own that LISTENs on one PostgreSQL channel. When PostgreSQL drops it
 * (a restart, a terminated backend, a failover) it is made again with backoff, and the owner is told
 * so it can catch up on what was announced meanwhile.
 */
export class ChannelListener {
  private client?: pg.PoolClient;
  private detach: () => void = () => {};
  private timer?: NodeJS.Timeout;
  private delay = RELISTEN_MS.first;
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly options: ChannelListenerOptions,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  }

  /** Listens; rejects when PostgreSQL cannot be reached now (the caller decides whether that is fatal). */
  async start(): Promise<void> {
    await this.listen();
  }

  /** Like start(), but a PostgreSQL that is away now is not fatal: listening starts once it is back. */
  startSoon(): void {
    this.listen().catch(() => this.schedule());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query(`UNLISTEN ${this.channel}`).catch(() => {});
      this.detach();
      client.release();
    }
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    // only the current client's loss counts: one released by stop() ends with the pool later
    const onLost = (error: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.detach();
      client.release(error);
      if (this.stopped) return;
      this.options.log.warn({ err: error, channel: this.channel }, 'LISTEN connection lost; listening again');
      this.schedule();
    };
    const onEnd = () => onLost(new Error('the LISTEN connection ended'));
    const onNotification = (message: pg.Notification) => {
      if (message.channel === this.channel) this.options.onNotify(message.payload ?? '');
    };
    this.client = client;
    client.on('error', onLost);
    client.on('end', onEnd);
    client.on('notification', onNotification);
    // a pooled client outlives this listener: its handlers come off before it is handed back
    this.detach = () => {
      client.off('error', onLost);
      client.off('end', onEnd);
      client.off('notification', onNotification);
    };
    try {
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    this.delay = RELISTEN_MS.first;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      this.listen().then(
        () => this.options.onRelisten?.(),
        () => {
          this.delay = Math.min(this.delay * 2, RELISTEN_MS.max);
          this.schedule();
        },
      );
    }, this.delay);
  }
}
