import type { Redis } from 'ioredis';
import type { MonitorServerFrame } from '#machines/protocol/monitor.js';

/** The Redis channel the monitor's frames travel on; the queue prefix keeps runs and deployments apart. */
function monitorChannel(prefix: string): string {
  return `${prefix}:monitor`;
}

/** Sends monitor frames to every server process (and so every open monitor), e.g. from a worker. */
export function monitorPublisher(redis: Redis, prefix: string) {
  return async (frames: MonitorServerFrame[]): Promise<void> => {
    for (const frame of frames) await redis.publish(monitorChannel(prefix), JSON.stringify(frame));
  };
}

/** A monitor frame publisher. */
export type PublishMonitor = ReturnType<typeof monitorPublisher>;

/**
 * One server process's end of the monitor channel: a subscriber connection handing each frame to
 * the open monitor sockets, and, once a burst of frames has passed, `onBurst` (which sends
 * everyone fresh counters: they are read from the database once per burst, not once per socket).
 */
export class MonitorHub {
  private readonly listeners = new Set<(frame: string) => void>();
  private readonly subscriber: Redis;
  private burst: NodeJS.Timeout | undefined;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly onBurst: () => void,
    private readonly log: { warn: (o: object, m: string) => void },
  ) {
    // a connection in subscriber mode can do nothing else; it subscribes again by itself after a reconnect
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: true });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, frame: string) => {
      for (const listener of this.listeners) listener(frame);
      clearTimeout(this.burst);
      this.burst = setTimeout(this.onBurst, 150);
    });
  }

  /** Calls `listener` with every monitor frame until the returned function is called. Subscribes on first use. */
  listen(listener: (frame: string) => void): () => void {
    if (this.subscriber.status === 'wait') {
      this.subscriber
        .subscribe(monitorChannel(this.prefix))
        .catch((error: unknown) => this.log.warn({ err: error }, 'monitor subscriber failed'));
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a frame to this process's monitors only (the fresh counters after a burst). */
  sendLocal(frame: MonitorServerFrame): void {
    const text = JSON.stringify(frame);
    for (const listener of this.listeners) listener(text);
  }

  stop(): void {
    clearTimeout(this.burst);
    this.listeners.clear();
    this.subscriber.disconnect();
  }
}
