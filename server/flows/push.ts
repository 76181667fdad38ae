import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { FlowSnapshotResponse } from '../../machines/protocol/api.js';
import type { EventOrigin } from './flow-store.js';

/** One applied event as it travels to the browsers subscribed to its flow. */
export interface FlowPush extends FlowSnapshotResponse {
  origin: EventOrigin;
  event: { type: string };
}

const pushSchema = z.object({
  flowId: z.uuid(),
  machine: z.enum(['assessmentFlow', 'diagnostic', 'mirror']),
  version: z.number().int(),
  state: z.string(),
  snapshot: z.record(z.string(), z.unknown()),
  origin: z.enum(['client', 'server', 'worker']),
  event: z.looseObject({ type: z.string() }),
});

/** The Redis channel pushes travel on; the queue prefix keeps test runs and deployments apart. */
export function pushChannel(prefix: string): string {
  return `${prefix}:flow-pushes`;
}

/** Publishes pushes on Redis, where every server process (and so every subscribed browser) hears them. */
export function redisPublisher(redis: Redis, prefix: string) {
  const channel = pushChannel(prefix);
  return async (pushes: FlowPush[]): Promise<void> => {
    for (const push of pushes) await redis.publish(channel, JSON.stringify(push));
  };
}

type Listener = (push: FlowPush) => void;

/**
 * One server process's end of the push channel: a dedicated subscriber connection, fanning each
 * push out to the listeners (websockets) of its flow.
 */
export class PushHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly subscriber: Redis;

  constructor(redis: Redis, private readonly prefix: string, private readonly log: { warn: (o: object, m: string) => void }) {
    // a connection in subscriber mode can do nothing else, so it gets its own; it queues the
    // SUBSCRIBE until Redis answers and re-subscribes by itself after a reconnect
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  }

  /** Subscribes; resolves once subscribed, or at once (still trying) when Redis is not answering. */
  async start(): Promise<void> {
    this.subscriber.on('message', (_channel: string, raw: string) => this.dispatch(raw));
    this.subscriber.on('error', () => {});
    const subscribed = this.subscriber.subscribe(pushChannel(this.prefix));
    subscribed.catch((error: unknown) => this.log.warn({ err: error }, 'push subscriber failed'));
    if (this.subscriber.status === 'ready' || this.subscriber.status === 'connecting') {
      await Promise.race([subscribed.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    }
  }

  async stop(): Promise<void> {
    this.listeners.clear();
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

  private dispatch(raw: string): void {
    let push: FlowPush;
    try {
      push = pushSchema.parse(JSON.parse(raw)) as FlowPush;
    } catch (error) {
      this.log.warn({ err: error }, 'ignored a malformed push');
      return;
    }
    for (const listener of this.listeners.get(push.flowId) ?? []) listener(push);
  }
}
