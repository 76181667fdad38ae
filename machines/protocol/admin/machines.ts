import { z } from 'zod';

const machineTransitionSchema = z.object({
  event: z.string(),
  /** Dotted path of the target state; the source itself for a targetless (in-place) transition. */
  target: z.string(),
  guard: z.string().nullable(),
});

const machineStateSchema = z.object({
  /** Dotted path below the machine, as the flows table stores it ('processing.grading'). */
  path: z.string(),
  key: z.string(),
  parent: z.string().nullable(),
  type: z.enum(['atomic', 'compound', 'parallel', 'final', 'history']),
  /** True for a transient state (it only has eventless `always` transitions). */
  transient: z.boolean(),
  /** For a compound state, the dotted path of its initial child. */
  initial: z.string().nullable(),
  transitions: z.array(machineTransitionSchema),
  /** Flows now in this state (for a compound state, in any state below it). */
  count: z.number().int(),
});

const machineSummarySchema = z.object({
  name: z.string(),
  id: z.string(),
  /** The leaf state a new flow starts in (after following initial children). */
  initial: z.string(),
  states: z.array(machineStateSchema),
  /** Transitions the machine takes in any state. */
  global: z.array(machineTransitionSchema.omit({ target: true }).extend({ target: z.string().nullable() })),
  /** Flows in states the definition no longer has (older versions), by stored state. */
  unknown: z.array(z.object({ state: z.string(), count: z.number().int() })),
  totalFlows: z.number().int(),
  /** Flow events per minute over the last hour, oldest first, one entry a minute. */
  eventsPerMinute: z.array(z.number().int()),
});

/** GET /api/admin/machines: each flow machine's states and transitions, with live flow counts. */
export const machinesSchema = z.object({ machines: z.array(machineSummarySchema) });
export type MachinesAnswer = z.infer<typeof machinesSchema>;
export type MachineState = MachinesAnswer['machines'][number]['states'][number];
export type MachineTransition = MachineState['transitions'][number];
