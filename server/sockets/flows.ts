import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { flowSocketClientFrameSchema, type FlowSocketServerFrame } from '#machines/protocol/socket.js';
import { FlowNotFoundError } from '#core/flows/flow-store.js';
import { rateLimits, TooManyRequestsError } from '../plugins/security.js';
import type { RouteDeps } from '../routes/deps.js';
import { readClientFrame } from './frames.js';

/** Flows one socket may follow at once (a visitor has a handful of tabs' worth). */
const MAX_SUBSCRIPTIONS = 20;
/** Subscribe frames one socket may send a minute (a reconnect resubscribes a few flows at once). */
const SUBSCRIBES_PER_MINUTE = 60;
/** Flow sockets one client address may hold open at once on one server process (a tab holds one). */
export const MAX_SOCKETS_PER_ADDRESS = 30;

/** Counts the open sockets of each client address in this process. */
class SocketsPerAddress {
  private readonly open = new Map<string, number>();

  /** Takes a place for `address`; false when it has no place left. */
  take(address: string): boolean {
    const count = this.open.get(address) ?? 0;
    if (count >= MAX_SOCKETS_PER_ADDRESS) return false;
    this.open.set(address, count + 1);
    return true;
  }

  release(address: string): void {
    const count = (this.open.get(address) ?? 1) - 1;
    if (count > 0) this.open.set(address, count);
    else this.open.delete(address);
  }
}

/**
 * The flow socket at /api/ws: a browser subscribes to its own flows (the visitor cookie of the
 * handshake decides which; another visitor's flow is answered as not found) and receives every
 * event applied to them, from whichever process applied it (pushes travel through Redis). Every frame is
 * JSON validated with zod; a bad frame gets an error frame naming the problem and the connection
 * stays open.
 */
export function flowSocket(app: FastifyInstance, deps: Pick<RouteDeps, 'engine' | 'pushes'>, done: () => void): void {
  const perAddress = new SocketsPerAddress();
  const refuseCrowdedAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    if (perAddress.take(request.ip)) return;
    reply.header('retry-after', '60');
    throw new TooManyRequestsError('1 minute', `At most ${MAX_SOCKETS_PER_ADDRESS} open connections per address.`);
  };

  app.get(
    '/api/ws',
    { websocket: true, config: { rateLimit: rateLimits.sockets }, preHandler: refuseCrowdedAddress },
    (socket, request) => {
      socket.on('close', () => perAddress.release(request.ip));
      const subscriptions = new Map<string, () => void>();
      // counted in a minute that starts with the first subscribe frame after the last minute ended
      let subscribes = { since: 0, count: 0 };
      const sendRaw = (frame: string) => {
        if (socket.readyState === socket.OPEN) socket.send(frame);
      };
      const send = (frame: FlowSocketServerFrame) => sendRaw(JSON.stringify(frame));
      send({ type: 'hello' });

      async function subscribe(flowId: string): Promise<void> {
        if (!subscriptions.has(flowId) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
          return send({ type: 'error', flowId, error: `At most ${MAX_SUBSCRIPTIONS} flows per connection.` });
        }
        subscriptions.get(flowId)?.();
        // listen before reading, so an event applied in between is pushed rather than missed
        subscriptions.set(flowId, deps.pushes.listen(flowId, sendRaw));
        try {
          send({ type: 'subscribed', flowId, version: await deps.engine.version(flowId, { visitorId: request.visitorId }) });
        } catch (error) {
          subscriptions.get(flowId)?.();
          subscriptions.delete(flowId);
          if (error instanceof FlowNotFoundError) return send({ type: 'error', flowId, error: error.message });
          request.log.error({ err: error }, 'subscribe failed');
          send({ type: 'error', flowId, error: 'Could not read that flow right now; try again.' });
        }
      }

      socket.on('message', (raw) => {
        const read = readClientFrame(raw, flowSocketClientFrameSchema, request.log);
        if ('error' in read) return send({ type: 'error', error: read.error });
        const { frame } = read;
        switch (frame.type) {
          case 'ping':
            return send({ type: 'pong' });
          case 'subscribe': {
            const now = Date.now();
            subscribes =
              now - subscribes.since < 60_000 ? { since: subscribes.since, count: subscribes.count + 1 } : { since: now, count: 1 };
            if (subscribes.count > SUBSCRIBES_PER_MINUTE) {
              return send({
                type: 'error',
                flowId: frame.flowId,
                error: `At most ${SUBSCRIBES_PER_MINUTE} subscriptions a minute per connection; wait a moment.`,
              });
            }
            return void subscribe(frame.flowId);
          }
          case 'unsubscribe':
            subscriptions.get(frame.flowId)?.();
            subscriptions.delete(frame.flowId);
            return;
        }
      });
      socket.on('close', () => {
        for (const stop of subscriptions.values()) stop();
        subscriptions.clear();
      });
    },
  );
  done();
}
