import { z } from 'zod';
import { flowMachineVersions, upgradeEvent } from '#machines/flow-versions.js';
import { flowMachineNameSchema } from '#machines/protocol/api.js';
import { inJobTransaction, type QueueProcessor } from './processor.js';

const payloadSchema = z.object({
  flowId: z.uuid(),
  event: z.looseObject({ type: z.string().min(1) }),
  // absent from jobs queued before versions were recorded: those were all version 1
  machine: flowMachineNameSchema.optional(),
  machineVersion: z.number().int().min(1).default(1),
});

/**
 * A delayed flow event (a machine's `after` delay, the test payment's second) come due. A flow
 * that has moved on meanwhile no longer takes it, which is what cancelling a delay means.
 */
export const timersProcessor: QueueProcessor = {
  process: async (job, context) => {
    const { flowId, event: queued, machine, machineVersion } = payloadSchema.parse(job.data.payload);
    // named as the machine running now names it, if a deploy renamed it since it was queued
    const event = machine ? upgradeEvent(flowMachineVersions[machine], machineVersion, queued) : queued;
    return inJobTransaction(context, async (tx) => {
      const flow = await tx.applyIfAllowed(flowId, event, 'server');
      return flow ? { applied: event.type, state: flow.state } : { skipped: `${event.type} no longer applies` };
    });
  },
};
