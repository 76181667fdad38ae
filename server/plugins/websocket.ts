import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** Largest frame a browser may send; flow events are small. */
const MAX_PAYLOAD = 64 * 1024;

const clientMessage = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);

/**
 * The websocket endpoint at /api/ws. Every frame is JSON validated with zod; a bad frame gets an
 * error frame naming the problem and the connection stays open.
 */
export async function websocketEndpoint(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: MAX_PAYLOAD } });

  app.get('/api/ws', { websocket: true }, (socket) => {
    const send = (message: unknown) => socket.send(JSON.stringify(message));
    send({ type: 'hello' });
    socket.on('message', (raw) => {
      let data: unknown;
      try {
        data = JSON.parse(raw.toString());
      } catch {
        return send({ type: 'error', error: 'Messages must be JSON.' });
      }
      const parsed = clientMessage.safeParse(data);
      if (!parsed.success) {
        return send({ type: 'error', error: `Unknown or malformed message: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
      }
      send({ type: 'pong' });
    });
  });
}
