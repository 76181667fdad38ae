import type { Redis } from 'ioredis';
import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import type { FlowSocketServerFrame } from '#machines/protocol/socket.js';
import type { EventOrigin } from './flow-store.js';

/** One applied event as it travels to the browsers subscribed to its flow. */
export interface FlowPush extends FlowSnapshotResponse {
  origin: EventOrigin;
  event: { type: string };
}

/** The Redis channel of one flow's pushes; the queue prefix keeps test runs and deployments apart. */
function flowChannel(prefix: string, flowId: string): string {
  return `${prefix}:flow:${flowId}`;
}

/**
 * Publishes pushes on Redis, where every server process (and so every subscribed browser) hears
 * them. Each is published as the socket frame itself, so servers forward it without parsing it.
 */
export function redisPublisher(redis: Redis, prefix: string) {
  return async (pushes: FlowPush[]): Promise<void> => {
    for (const push of pushes) {
      const frame: FlowSocketServerFrame = {
        type: 'event',
        flowId: push.flowId,
        version: push.version,
        origin: push.origin,
        event: push.event,
        state: push.state,
        snapshot: push.snapshot,
      };
      await redis.publish(flowChannel(prefix, push.flowId), JSON.stringify(frame));
    }
  };
}

/** Receives one push: the serialized `event` frame of the flow. */
type Listener = (frame: string) => void;
/** Receives every flow's pushes, with the flow's id. */
type AllListener = (flowId: string, frame: string) => void;

/**
 * One server process's end of the pushes: a dedicated subscriber connection on the pattern of
 * every flow's channel, handing each frame to the listeners (websockets) of its flow.
 */
export class PushHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly allListeners = new Set<AllListener>();
  private readonly subscriber: Redis;
  private readonly channelPrefix: string;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly log: { warn: (o: object, m: string) => void },
  ) {
    this.channelPrefix = flowChannel(prefix, '');
    // a connection in subscriber mode can do nothing else, so it gets its own; it queues the
    // PSUBSCRIBE until Redis answers and subscribes again by itself after a reconnect
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  }

  /** Subscribes; resolves once subscribed, or after 2 s (still trying) when Redis is not answering. */
  async start(): Promise<void> {
    this.subscriber.on('pmessage', (_pattern: string, channel: string, frame: string) => {
      const flowId = channel.slice(this.channelPrefix.length);
      for (const listener of this.listeners.get(flowId) ?? []) listener(frame);
      for (const listener of this.allListeners) listener(flowId, frame);
    });
    this.subscriber.on('error', () => {});
    const subscribed = this.subscriber.psubscribe(`${this.channelPrefix}*`);
    subscribed.catch((error: unknown) => this.log.warn({ err: error }, 'push subscriber failed'));
    await Promise.race([subscribed.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
  }

  stop(): void {
    this.listeners.clear();
    this.allListeners.clear();
    this.subscriber.disconnect();
  }

  /** Calls `listener` with every push of `flowId` until the returned function is called. */
  listen(flowId: string, listener: Listener): () => void {
    let set = this.listeners.get(flowId);
    if (!set) this.listeners.set(flowId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(flowId);
    };
  }

  /** Calls `listener` with every push of every flow (the admin's live feed) until the returned function is called. */
  listenAll(listener: AllListener): () => void {
    this.allListeners.add(listener);
    return () => {
      this.allListeners.delete(listener);
    };
  }
}
