import { z } from 'zod';

const flowId = z.uuid();
const version = z.number().int().min(0);

/** What a browser sends on /api/ws: keep-alive, and which flows to receive pushes for. */
export const flowSocketClientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('subscribe'), flowId }),
  z.object({ type: z.literal('unsubscribe'), flowId }),
]);
/** A frame a browser sends on the flow socket. */
export type FlowSocketClientFrame = z.infer<typeof flowSocketClientFrameSchema>;

/**
 * What the server sends on /api/ws. `event` pushes every event applied to a subscribed flow (a
 * worker's result, a timer, another tab's click) with the version and snapshot it produced; a
 * browser that sees a gap in versions reads the flow again.
 */
export const flowSocketServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('subscribed'), flowId, version }),
  z.object({
    type: z.literal('event'),
    flowId,
    version,
    origin: z.enum(['client', 'server', 'worker']),
    event: z.looseObject({ type: z.string().min(1).max(80) }),
    /** The flow as that event left it, so a browser can adopt the server's snapshot directly. */
    state: z.string().min(1).max(200),
    snapshot: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('error'), error: z.string().max(500), flowId: flowId.optional() }),
]);
/** A frame the server sends on the flow socket. */
export type FlowSocketServerFrame = z.infer<typeof flowSocketServerFrameSchema>;
