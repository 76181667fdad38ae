import type { FastifyInstance } from 'fastify';
import { flowSocketClientFrameSchema, type FlowSocketServerFrame } from '../../machines/protocol/socket.js';
import { FlowNotFoundError } from '../flows/flow-store.js';
import type { RouteDeps } from '../routes/deps.js';
import { readClientFrame } from './socket-frames.js';

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
      const read = readClientFrame(raw, flowSocketClientFrameSchema);
      if ('error' in read) return send({ type: 'error', error: read.error });
      const { frame } = read;
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
