import type pg from 'pg';

/** How long after losing its connection a listener tries again, doubling up to the cap. */
const RELISTEN_MS = { first: 250, max: 5_000 };

/** What a channel's owner is told. */
export interface ChannelHandlers {
  /** Called with each notification's payload. */
  onNotify: (payload: string) => void;
  /**
   * Called once listening again after a lost connection: notifications sent meanwhile are gone, so
   * the owner catches up by reading the state itself.
   */
  onRelisten?: () => void;
}

/**
 * A pooled connection of its own that LISTENs on the PostgreSQL channels its owners named with on()
 * (one connection for all of a process's channels: PostgreSQL's connections are few). When
 * PostgreSQL drops it (a restart, a terminated backend, a failover) it is made again with backoff,
 * and every owner is told so it can catch up on what was announced meanwhile.
 */
export class ChannelListener {
  private readonly channels = new Map<string, ChannelHandlers>();
  private client?: pg.PoolClient;
  private detach: () => void = () => {};
  private timer?: NodeJS.Timeout;
  private delay = RELISTEN_MS.first;
  private started = false;
  private stopped = false;
  private listened = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: { warn: (object: object, message: string) => void },
  ) {}

  /** Adds a channel and its owner; before start, since LISTEN is issued then. */
  on(channel: string, handlers: ChannelHandlers): this {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    if (this.started) throw new Error(`channel ${channel} added after the listener started`);
    if (this.channels.has(channel)) throw new Error(`channel ${channel} has an owner already`);
    this.channels.set(channel, handlers);
    return this;
  }

  /** True while LISTEN holds: every notification reaches its owner from now on. */
  get listening(): boolean {
    return this.listened;
  }

  /** Listens; rejects when PostgreSQL cannot be reached now (the caller decides whether that is fatal). */
  async start(): Promise<void> {
    this.started = true;
    await this.listen();
  }

  /** Like start(), but a PostgreSQL that is away now is not fatal: listening starts once it is back. */
  startSoon(): void {
    this.started = true;
    this.listen().catch(() => this.schedule());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listened = false;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query('UNLISTEN *').catch(() => {});
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
      this.listened = false;
      this.detach();
      client.release(error);
      if (this.stopped) return;
      this.log.warn({ err: error, channels: [...this.channels.keys()] }, 'LISTEN connection lost; listening again');
      this.schedule();
    };
    const onEnd = () => onLost(new Error('the LISTEN connection ended'));
    const onNotification = (message: pg.Notification) => {
      this.channels.get(message.channel)?.onNotify(message.payload ?? '');
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
      // one simple query, one round trip, for every channel
      await client.query([...this.channels.keys()].map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      onLost(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    this.listened = true;
    this.delay = RELISTEN_MS.first;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      this.listen().then(
        () => {
          for (const handlers of this.channels.values()) handlers.onRelisten?.();
        },
        () => {
          this.delay = Math.min(this.delay * 2, RELISTEN_MS.max);
          this.schedule();
        },
      );
    }, this.delay);
  }
}
