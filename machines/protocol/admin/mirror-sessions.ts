import { z } from 'zod';
import { pageFields, timestamp } from './common.js';
import { includeTestSchema, timeZoneSchema } from './scope.js';

/** Sessions on one page of the admin's Mirror list. */
export const MIRROR_PAGE_SIZE = 20;

export const mirrorListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** saved: only the sessions a visitor kept (with the email form, or by going on to the assessment). */
  show: z.enum(['all', 'saved']).default('all'),
  /** The Overview's scope: sessions started from this day (in tz) on, test ones only when included. */
  from: z.iso.date('Use a date like 2026-01-31.').optional(),
  tz: timeZoneSchema,
  includeTest: includeTestSchema,
});
export type MirrorListQuery = z.infer<typeof mirrorListQuerySchema>;

const mirrorMessageSchema = z.object({ role: z.enum(['user', 'mirror']), content: z.string(), turn: z.number().int() });

const mirrorSessionRowSchema = z.object({
  id: z.uuid(),
  created_at: timestamp,
  turns: z.number().int(),
  completed: z.boolean(),
  saved: z.boolean(),
  /** The lead the session belongs to: saved with it, or the lead of the assessment it was part of. */
  lead: z.object({ id: z.uuid(), email: z.string(), name: z.string() }).nullable(),
  messages: z.array(mirrorMessageSchema),
});

/** GET /api/admin/mirror-sessions */
export const mirrorPageSchema = z.object({ sessions: z.array(mirrorSessionRowSchema), ...pageFields });
export type MirrorPage = z.infer<typeof mirrorPageSchema>;
