import type { Redis } from 'ioredis';

/** Receives one frame of a key's channel. */
type Listener = (frame: string) => void;
/** Receives every frame of every key, with the key. */
type AllListener = (key: string, frame: string) => void;

/**
 * A family of Redis channels: `<queue prefix>:<name>` alone, or, when keyed, one channel per key
 * (`<queue prefix>:<name>:<key>`). The queue prefix keeps test runs and deployments apart.
 */
export interface HubChannel {
  prefix: string;
  name: string;
  keyed: boolean;
}

function channelOf({ prefix, name }: HubChannel, key?: string): string {
  return key === undefined ? `${prefix}:${name}` : `${prefix}:${name}:${key}`;
}

/** Publishes ready-made frames on a channel family, so every process's hub hears them (a keyed family needs the key). */
export function hubPublisher(redis: Redis, channel: HubChannel) {
  return async (frame: string, key?: string): Promise<void> => {
    await redis.publish(channelOf(channel, channel.keyed ? key : undefined), frame);
  };
}

/** How long start() waits for Redis to confirm the subscription before going on (still trying). */
const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * One process's end of a channel family: one subscriber connection (a pattern for a keyed family)
 * handing each frame to the listeners of its key and to those of every key. The connection is made
 * at the first start() or listen(); it queues the subscription until Redis answers and subscribes
 * again by itself after a reconnect, so a Redis restart costs the frames published meanwhile only.
 */
export class PubSubHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly allListeners = new Set<AllListener>();
  private readonly subscriber: Redis;
  private subscribed: Promise<void> | undefined;

  constructor(
    redis: Redis,
    private readonly channel: HubChannel,
    private readonly log: { warn: (o: object, m: string) => void },
    /** Called after each frame from Redis has been handed out (not after deliver()). */
    private readonly onFrame: () => void = () => {},
  ) {
    // a connection in subscriber mode can do nothing else, so it gets its own
    this.subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: true });
    // connection errors repeat while Redis is away; ioredis reconnects by itself
    this.subscriber.on('error', () => {});
    if (channel.keyed) {
      const keyStart = channelOf(channel, '').length;
      this.subscriber.on('pmessage', (_pattern: string, name: string, frame: string) => this.received(name.slice(keyStart), frame));
    } else {
      this.subscriber.on('message', (_name: string, frame: string) => this.received('', frame));
    }
  }

  /** Subscribes (once); resolves once subscribed, or after 2 s (still trying) when Redis is not answering. */
  async start(): Promise<void> {
    this.subscribed ??= this.subscribe();
    await Promise.race([this.subscribed, new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref())]);
  }

  stop(): void {
    this.listeners.clear();
    this.allListeners.clear();
    this.subscriber.disconnect();
  }

  /** Calls `listener` with every frame of `key` until the returned function is called. */
  listen(key: string, listener: Listener): () => void {
    void this.start();
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(key);
    };
  }

  /** Calls `listener` with every frame of every key until the returned function is called. */
  listenAll(listener: AllListener): () => void {
    void this.start();
    this.allListeners.add(listener);
    return () => {
      this.allListeners.delete(listener);
    };
  }

  /** Hands a frame to this process's listeners only, without Redis. */
  deliver(key: string, frame: string): void {
    for (const listener of this.listeners.get(key) ?? []) listener(frame);
    for (const listener of this.allListeners) listener(key, frame);
  }

  private received(key: string, frame: string): void {
    this.deliver(key, frame);
    this.onFrame();
  }

  private async subscribe(): Promise<void> {
    const { channel } = this;
    try {
      await (channel.keyed ? this.subscriber.psubscribe(`${channelOf(channel, '')}*`) : this.subscriber.subscribe(channelOf(channel)));
    } catch (error) {
      this.log.warn({ err: error }, `${channel.name} subscriber failed`);
    }
  }
}
