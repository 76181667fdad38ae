import { QueueEvents } from 'bullmq';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import {
  ADMIN_LIVE_JOB_EVENTS,
  ADMIN_LIVE_PATH,
  adminLiveClientFrameSchema,
  FAILED_REASON_MAX,
  type AdminLiveServerFrame,
} from '#machines/protocol/admin-live.js';
import type { PushHub } from '#core/flows/push.js';
import { QUEUE_NAMES } from '#core/queues/names.js';
import { sessionToken } from '../auth/guard.js';
import type { RouteDeps } from '../routes/deps.js';
import { readClientFrame } from './frames.js';

/** The parts of a flow push (the flow socket's `event` frame) the admin feed passes on. */
const flowPushSchema = z.object({ state: z.string().min(1).max(200), event: z.object({ type: z.string().min(1).max(80) }) });

/** What every BullMQ event listened to carries (plus `failedReason` on failures). */
interface QueueEventArgs {
  jobId: string;
  failedReason?: string;
}

/** Closes an open feed. */
type StopFeed = () => Promise<void>;

/** A QueueEvents stream id is `<milliseconds>-<sequence>` on Redis's clock. */
function streamTime(id: string): number {
  return Number.parseInt(id, 10) || Date.now();
}

/** Redis's clock now as a stream id, so a feed hears everything from this moment however late its first read. */
async function streamIdNow(redis: Redis): Promise<string> {
  try {
    const [seconds, micros] = await redis.time();
    return `${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}-0`;
  } catch {
    // Redis not answering: start from whatever arrives once it does
    return '$';
  }
}

/**
 * The feed shared by every admin socket of this process: every flow push (PushHub already hears
 * them all) and BullMQ's QueueEvents of every queue, each serialized once and sent to every
 * socket. The QueueEvents (one blocking Redis connection per queue) are opened when the first
 * socket joins and closed when the last leaves; opening and closing run one after the other, so
 * a socket joining while the feed closes gets a fresh one.
 */
class AdminLiveFeed {
  private readonly sockets = new Set<(frame: string) => void>();
  /** Settles with the open feed's closer, or null while closed; every change chains onto it. */
  private feed: Promise<StopFeed | null> = Promise.resolve(null);

  constructor(
    private readonly pushes: PushHub,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Adds a socket; resolves once the feed is listening. Returns the function that removes it. */
  async join(send: (frame: string) => void): Promise<() => void> {
    this.sockets.add(send);
    await this.sync();
    return () => {
      if (this.sockets.delete(send)) void this.sync();
    };
  }

  /** Drops every socket and closes the feed (app close). */
  async close(): Promise<void> {
    this.sockets.clear();
    await this.sync();
  }

  private sync(): Promise<void> {
    this.feed = this.feed
      .then(async (open) => {
        let stop = open;
        if (!this.sockets.size && stop) {
          await stop();
          stop = null;
        }
        // a socket may have joined while the feed closed
        return this.sockets.size && !stop ? this.open() : stop;
      })
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'admin live feed failed to open or close; the next socket tries again');
        return null;
      });
    return this.feed.then(() => undefined);
  }

  private broadcast(frame: AdminLiveServerFrame): void {
    const raw = JSON.stringify(frame);
    for (const send of this.sockets) send(raw);
  }

  private async open(): Promise<StopFeed> {
    const stopFlows = this.pushes.listenAll((flowId, raw) => {
      let push: z.infer<typeof flowPushSchema>;
      try {
        push = flowPushSchema.parse(JSON.parse(raw));
      } catch (error) {
        return this.log.warn({ err: error, flowId }, 'admin live feed skipped an unreadable flow push');
      }
      this.broadcast({ type: 'flow', flowId, state: push.state, event: push.event.type });
    });
    const lastEventId = await streamIdNow(this.redis);
    // Each QueueEvents blocks on a connection of its own made from these options; it must wait
    // for Redis rather than fail, so BullMQ's own reconnect backoff replaces the producer's
    const { retryStrategy: _producerRetries, ...redisOptions } = this.redis.options;
    const connection = { ...redisOptions, maxRetriesPerRequest: null, enableOfflineQueue: true };
    const queueEvents = QUEUE_NAMES.map((queue) => {
      const events = new QueueEvents(queue, { connection, prefix: this.prefix, lastEventId });
      events.on('error', (error) => this.log.debug({ err: error, queue }, 'admin live queue events connection error'));
      for (const event of ADMIN_LIVE_JOB_EVENTS) {
        events.on(event, (args: QueueEventArgs, id: string) => {
          this.broadcast({
            type: 'job',
            queue,
            jobId: args.jobId,
            event,
            ...(args.failedReason === undefined ? {} : { failedReason: args.failedReason.slice(0, FAILED_REASON_MAX) }),
            at: streamTime(id),
          });
        });
      }
      return events;
    });
    return async () => {
      stopFlows();
      await Promise.all(queueEvents.map((events) => events.close()));
    };
  }
}

/**
 * GET /api/admin/live: the ops console's websocket, registered inside the admin plugin (server/admin/index.ts),
 * whose hooks upgrade only an admin's session opened from the site itself (403 for another Origin,
 * 401/403 from the admin guard). The session is read again every minute, and the socket closed
 * with 4401 at once when the session ends (AdminSockets). Frames are JSON per
 * machines/protocol/admin-live.ts; anything but a ping gets an error frame and the socket stays open.
 */
export function adminLiveRoutes(
  app: FastifyInstance,
  deps: Pick<RouteDeps, 'config' | 'pool' | 'redis' | 'pushes' | 'adminSockets'>,
  done: () => void,
): void {
  const feed = new AdminLiveFeed(deps.pushes, deps.redis, deps.config.QUEUE_PREFIX, app.log);
  app.addHook('onClose', () => feed.close());

  app.get(ADMIN_LIVE_PATH, { websocket: true }, async (socket, request) => {
    const sendRaw = (frame: string) => {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    };
    const send = (frame: AdminLiveServerFrame) => sendRaw(JSON.stringify(frame));

    // listeners first: a frame arriving while the feed opens must not go unanswered
    socket.on('message', (raw) => {
      const read = readClientFrame(raw, adminLiveClientFrameSchema, request.log);
      send('error' in read ? { type: 'error', error: read.error } : { type: 'pong' });
    });

    deps.adminSockets.watch(socket, sessionToken(request), request.log);

    let leave: (() => void) | null = null;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      leave?.();
    });
    leave = await feed.join(sendRaw);
    if (closed) return leave();
    send({ type: 'hello' });
  });
  done();
}
