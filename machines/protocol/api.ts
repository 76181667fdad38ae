import { z } from 'zod';
import { BOOKING_REFERENCE_PATTERN } from '../booking-link.js';
import { assessmentFlowClientEventSchema } from './assessment-flow.js';
import { flowModeSchema, knownSessionSchema } from './common.js';
import { diagnosticClientEventSchema } from './diagnostic.js';
import { mirrorClientEventSchema } from './mirror.js';

/** The machines the server runs as flows (the flows table's machine column). */
export const flowMachineNameSchema = z.enum(['assessmentFlow', 'diagnostic', 'mirror']);
/** A machine the server runs as a flow. */
export type FlowMachineName = z.infer<typeof flowMachineNameSchema>;

/**
 * POST /api/flows: what the browser knows when a flow opens. The server turns the token and ref
 * into the machine's input (token check, community marker, stored result) itself.
 */
export const flowStartBodySchema = z.object({
  machine: flowMachineNameSchema.default('assessmentFlow'),
  mode: flowModeSchema.default('assessment'),
  token: z.string().min(1).max(200).optional(),
  ref: z.string().min(1).max(100).optional(),
  /** Local host, test=true or testing=true. */
  testing: z.boolean().default(false),
  /** The lead session this browser tab already holds. */
  knownSession: knownSessionSchema.nullable().default(null),
  /** A diagnostic this visitor finished on the standalone page: the assessment opens on its survey. */
  diagnosticId: z.uuid().optional(),
});
/** The body that starts a flow. */
export type FlowStartBody = z.infer<typeof flowStartBodySchema>;

const expectedVersion = z.number().int().min(0).optional();

/**
 * The header a flow event carries its expected version in, besides the body: it tells a proxy that
 * the request may be sent again after its server died mid-way, because the server applies it only
 * at that version (a replay of one that landed is answered 409 with the flow; decision 0057).
 */
export const EXPECTED_VERSION_HEADER = 'x-flow-expected-version';

/**
 * POST /api/flows/:id/events, per machine: the event a browser may send (never a system event)
 * and, optionally, the version it applied it to, for the compare-and-set on flows.version.
 */
export const flowEventBodySchemas = {
  assessmentFlow: z.object({ event: assessmentFlowClientEventSchema, expectedVersion }),
  diagnostic: z.object({ event: diagnosticClientEventSchema, expectedVersion }),
  mirror: z.object({ event: mirrorClientEventSchema, expectedVersion }),
} as const satisfies Record<FlowMachineName, z.ZodType>;

/** A flow as the server answers it: its persisted snapshot, dotted state path and version. */
export const flowSnapshotResponseSchema = z.object({
  flowId: z.uuid(),
  machine: flowMachineNameSchema,
  version: z.number().int().min(0),
  state: z.string().min(1).max(200),
  snapshot: z.record(z.string(), z.unknown()),
});
/** GET /api/flows/:id/booking-reference: what the flow's booking link carries (decision 0046). */
export const bookingReferenceResponseSchema = z.object({ reference: z.string().regex(BOOKING_REFERENCE_PATTERN) });

/** A flow as the server answers it. */
export type FlowSnapshotResponse = z.infer<typeof flowSnapshotResponseSchema>;

/** The 409 for an event the flow's current state does not take: the usual error shape plus the flow. */
export const flowConflictResponseSchema = z.object({
  statusCode: z.literal(409),
  error: z.literal('Conflict'),
  message: z.string(),
  flow: flowSnapshotResponseSchema,
});
