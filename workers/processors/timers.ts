import { z } from 'zod';
import type { QueueProcessor } from './index.js';

const payloadSchema = z.object({ flowId: z.uuid(), event: z.looseObject({ type: z.string().min(1) }) });

/**
 * A delayed flow event (a machine's `after` delay, the test payment's second) come due. A flow
 * that has moved on meanwhile no longer takes it, which is what cancelling a delay means.
 */
export const timersProcessor: QueueProcessor = {
  process: async (job, { engine }) => {
    const { flowId, event } = payloadSchema.parse(job.data.payload);
    const flow = await engine.applyIfAllowed(flowId, event, 'server');
    return flow ? { applied: event.type, state: flow.state } : { skipped: `${event.type} no longer applies` };
  },
};
