import type { FastifyInstance } from 'fastify';
import { flowSocketClientFrameSchema, type FlowSocketServerFrame } from '../../machines/protocol/socket.js';
import { FlowNotFoundError } from '../flows/flow-store.js';
import type { RouteDeps } from '../routes/deps.js';

/** Flows one socket may follow at once (a visitor has a handful of tabs' worth). */
const MAX_SUBSCRIPTIONS = 20;

/**
 * The flow socket at /api/ws: a browser subscribes to its flow ids and receives every event
 * applied to them, from whichever process applied it (pushes travel through Redis). Every frame is
 * JSON validated with zod; a bad frame gets an error frame naming the problem and the connection
 * stays open.
 */
export async function websocketEndpoint(app: FastifyInstance, deps: Pick<RouteDeps, 'engine' | 'pushes'>): Promise<void> {
  app.get('/api/ws', { websocket: true }, (socket, request) => {
    const subscriptions = new Map<string, () => void>();
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
        const flow = await deps.engine.get(flowId);
        send({ type: 'subscribed', flowId, version: flow.version });
      } catch (error) {
        subscriptions.get(flowId)?.();
        subscriptions.delete(flowId);
        if (error instanceof FlowNotFoundError) return send({ type: 'error', flowId, error: error.message });
        request.log.error({ err: error }, 'subscribe failed');
        send({ type: 'error', flowId, error: 'Could not read that flow right now; try again.' });
      }
    }

    socket.on('message', (raw) => {
      let data: unknown;
      try {
        data = JSON.parse(raw.toString());
      } catch {
        return send({ type: 'error', error: 'Messages must be JSON.' });
      }
      const parsed = flowSocketClientFrameSchema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        return send({ type: 'error', error: `Unknown or malformed message: ${where}${issue?.message ?? 'invalid'}` });
      }
      const frame = parsed.data;
      switch (frame.type) {
        case 'ping':
          return send({ type: 'pong' });
        case 'subscribe':
          return void subscribe(frame.flowId);
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
  });
}
