import { z } from 'zod';

/** Where the admin's live socket answers (server/sockets/admin-live.ts). */
export const ADMIN_LIVE_PATH = '/api/admin/live';

/** The close code of every admin socket (this one and the team-chat monitor's) whose session ended while it was open. */
export const ADMIN_LIVE_SESSION_ENDED = 4401;

/** The BullMQ queue events forwarded to admins: a job's life from queued to done or gone. */
export const ADMIN_LIVE_JOB_EVENTS = [
  'waiting',
  'delayed',
  'active',
  'completed',
  'failed',
  'retries-exhausted',
  'stalled',
  'removed',
] as const;
/** A forwarded BullMQ queue event. */
export type AdminLiveJobEvent = (typeof ADMIN_LIVE_JOB_EVENTS)[number];

/** Longest failure reason a job frame carries; longer ones are cut (the job row keeps the whole error). */
export const FAILED_REASON_MAX = 1_000;

/** What an admin's browser may send: only the keep-alive. */
export const adminLiveClientFrameSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);
/** A frame the admin's browser sends. */
export type AdminLiveClientFrame = z.infer<typeof adminLiveClientFrameSchema>;

/**
 * What the server sends on the admin live socket: `hello` once the feed is listening (nothing
 * after it is missed), `flow` for every event applied to any flow, `job` for every queue event,
 * `pong`, and `error` for a frame it could not take (the connection stays open).
 */
export const adminLiveServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('pong') }),
  z.object({
    type: z.literal('flow'),
    flowId: z.uuid(),
    /** The state the event left the flow in. */
    state: z.string().min(1).max(200),
    /** The event's type, e.g. GRADED. */
    event: z.string().min(1).max(80),
  }),
  z.object({
    type: z.literal('job'),
    queue: z.string().min(1).max(40),
    jobId: z.string().min(1).max(200),
    event: z.enum(ADMIN_LIVE_JOB_EVENTS),
    failedReason: z.string().max(FAILED_REASON_MAX).optional(),
    /** When the event happened, in milliseconds since the epoch (Redis's clock). */
    at: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('error'), error: z.string().max(500) }),
]);
/** A frame the server sends on the admin live socket. */
export type AdminLiveServerFrame = z.infer<typeof adminLiveServerFrameSchema>;
/** A `flow` frame. */
export type AdminLiveFlowFrame = Extract<AdminLiveServerFrame, { type: 'flow' }>;
/** A `job` frame. */
export type AdminLiveJobFrame = Extract<AdminLiveServerFrame, { type: 'job' }>;
