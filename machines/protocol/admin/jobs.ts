import { z } from 'zod';
import { QUEUE_NAMES } from '../operations.js';
import { jsonObject, pageFields, timestamp } from './common.js';

/** The statuses a job row moves through (the jobs table's CHECK constraint). */
export const JOB_STATUSES = ['pending', 'enqueued', 'active', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const statusCounts = z.object(
  Object.fromEntries(JOB_STATUSES.map((status) => [status, z.number().int()])) as Record<JobStatus, z.ZodNumber>,
);

const bullCountsSchema = z.object({
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
});
export type BullCounts = z.infer<typeof bullCountsSchema>;

/** GET /api/admin/jobs/summary: the jobs table's counts per queue beside BullMQ's. */
export const jobsSummarySchema = z.object({
  redis: z.enum(['up', 'down']),
  queues: z.array(
    z.object({
      queue: z.enum(QUEUE_NAMES),
      counts: statusCounts,
      total: z.number().int(),
      /** BullMQ's own live counts; null when Redis did not answer. */
      bull: bullCountsSchema.nullable(),
    }),
  ),
});
export type JobsSummary = z.infer<typeof jobsSummarySchema>;

export const adminJobSchema = z.object({
  id: z.uuid(),
  queue: z.enum(QUEUE_NAMES),
  name: z.string(),
  status: z.enum(JOB_STATUSES),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  /** What the job was given (never a secret: webhook jobs name their card, the URL is read when sending). */
  payload: jsonObject,
  created_at: timestamp,
  finished_at: timestamp.nullable(),
  lead_id: z.uuid().nullable(),
  flow_id: z.uuid().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

export const jobsQuerySchema = z.object({
  queue: z.enum(QUEUE_NAMES).optional(),
  status: z.enum(JOB_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** GET /api/admin/jobs */
export const jobsPageSchema = z.object({ jobs: z.array(adminJobSchema), ...pageFields });
export type JobsPage = z.infer<typeof jobsPageSchema>;

/** POST /api/admin/jobs/retry-failed: one queue's failed jobs, or every queue's (no queue, or no body at all). */
export const retryFailedBodySchema = z
  .object({ queue: z.enum(QUEUE_NAMES).optional() })
  .strict()
  .nullish();

export const retryFailedResultSchema = z.object({ retried: z.number().int() });
