import type { Redis } from 'ioredis';
import type { MonitorServerFrame } from '#machines/protocol/monitor.js';
import { hubPublisher, PubSubHub, type HubChannel } from '../pubsub/hub.js';

/** The one channel the monitor's frames travel on: `<prefix>:monitor`. */
function monitorChannel(prefix: string): HubChannel {
  return { prefix, name: 'monitor', keyed: false };
}

/** How long after the last frame of a burst the fresh counters go out. */
const BURST_QUIET_MS = 150;

/** Sends monitor frames to every server process (and so every open monitor), e.g. from a worker. */
export function monitorPublisher(redis: Redis, prefix: string) {
  const publish = hubPublisher(redis, monitorChannel(prefix));
  return async (frames: MonitorServerFrame[]): Promise<void> => {
    for (const frame of frames) await publish(JSON.stringify(frame));
  };
}

/** A monitor frame publisher. */
export type PublishMonitor = ReturnType<typeof monitorPublisher>;

/**
 * One server process's end of the monitor channel: each frame handed to the open monitor sockets,
 * and, once a burst of frames has passed, `onBurst` (which sends everyone fresh counters: they are
 * read from the database once per burst, not once per socket). Subscribes on first use.
 */
export class MonitorHub {
  private readonly hub: PubSubHub;
  private burst: NodeJS.Timeout | undefined;

  constructor(redis: Redis, prefix: string, onBurst: () => void, log: { warn: (o: object, m: string) => void }) {
    this.hub = new PubSubHub(redis, monitorChannel(prefix), log, () => {
      clearTimeout(this.burst);
      this.burst = setTimeout(onBurst, BURST_QUIET_MS);
    });
  }

  /** Calls `listener` with every monitor frame until the returned function is called. */
  listen(listener: (frame: string) => void): () => void {
    return this.hub.listenAll((_key, frame) => listener(frame));
  }

  /** Sends a frame to this process's monitors only (the fresh counters after a burst). */
  sendLocal(frame: MonitorServerFrame): void {
    this.hub.deliver('', JSON.stringify(frame));
  }

  stop(): void {
    clearTimeout(this.burst);
    this.hub.stop();
  }
}
