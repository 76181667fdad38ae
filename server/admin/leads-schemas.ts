import { z } from 'zod';
import { adminLeadSchema, leadNoteSchema } from './schemas.js';

/** At most this many rows per page of the admin lead table. */
const LEADS_MAX_PAGE_SIZE = 100;
/** The CSV export stops at this many rows. */
export const LEADS_CSV_LIMIT = 10_000;

const LEAD_SORTS = ['created_at', 'email', 'total_score'] as const;

const isoDate = z.iso.date('Use a date like 2026-01-31.');

/** The filters shared by the table and the CSV export. */
export const leadFiltersSchema = z.object({
  q: z.string().trim().max(200).optional(),
  source: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/, 'Not a lead source.')
    .optional(),
  tier: z.enum(['book_call', 'homework', 'nurture']).optional(),
  tag: z.string().trim().min(1).max(60).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  sort: z.enum(LEAD_SORTS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export const leadListQuerySchema = leadFiltersSchema.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LEADS_MAX_PAGE_SIZE).default(25),
});

export type LeadFilters = z.infer<typeof leadFiltersSchema>;
export type LeadListQuery = z.infer<typeof leadListQuerySchema>;

export const leadPageSchema = z.object({
  items: z.array(adminLeadSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

const json = z.unknown();

/** A diagnostic answer as the coach reads it (server/admin/lead-answers.ts). */
const diagnosticAnswerViewSchema = z.object({
  id: z.string(),
  type: z.string(),
  question: z.string(),
  /** The rating or option in words, or a ranking's labels from first to last. */
  answer: z.union([z.string(), z.array(z.string())]),
  confidence: z.string().nullable(),
  timedOut: z.boolean(),
  responseMs: z.number(),
});

export const leadDetailSchema = z.object({
  lead: adminLeadSchema.extend({ updated_at: z.date() }),
  result: z
    .object({
      id: z.uuid(),
      tier: z.string(),
      qualification: z.string(),
      archetype: z.string(),
      total_score: z.number(),
      diagnostic_score: z.number(),
      survey_score: z.number(),
      mirror_score: z.number(),
      composite_score: z.number(),
      gaming_detected: z.boolean(),
      fallback: z.boolean(),
      scores: z.record(z.string(), z.number()),
      qualificationReasoning: z.array(z.string()),
      narrative: z.string().nullable(),
      created_at: z.date(),
    })
    .nullable(),
  /** Each diagnostic, latest first: its answers beside their questions, in words, by section. */
  diagnostics: z.array(
    z.object({
      id: z.uuid(),
      bank_version: z.string(),
      started_at: z.date(),
      sections: z.array(z.object({ title: z.string(), answers: z.array(diagnosticAnswerViewSchema) })),
    }),
  ),
  /** Each survey response, latest first: every question in the survey's order beside its answer. */
  surveys: z.array(
    z.object({
      id: z.uuid(),
      answers: z.array(z.object({ id: z.string(), question: z.string(), answer: z.string().nullable() })),
      survey_score: z.number().nullable(),
      created_at: z.date(),
    }),
  ),
  mirrorSessions: z.array(
    z.object({
      id: z.uuid(),
      saved: z.boolean(),
      turns: z.number(),
      completed: z.boolean(),
      created_at: z.date(),
      messages: z.array(z.object({ role: z.string(), content: z.string(), turn: z.number(), created_at: z.string() })),
    }),
  ),
  payments: z.array(
    z.object({
      id: z.uuid(),
      purpose: z.string(),
      amount_cents: z.number(),
      currency: z.string(),
      status: z.string(),
      test_mode: z.boolean(),
      payment_intent_id: z.string().nullable(),
      refunded_at: z.date().nullable(),
      created_at: z.date(),
    }),
  ),
  emails: z.array(
    z.object({
      id: z.uuid(),
      kind: z.string(),
      to_address: z.string(),
      subject: z.string(),
      /** The plain-text body, as the lead received it. */
      text_body: z.string(),
      /** Listed by name and size; the files themselves are rebuilt, not stored. */
      attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
      status: z.string(),
      error: z.string().nullable(),
      created_at: z.date(),
      sent_at: z.date().nullable(),
    }),
  ),
  jobs: z.array(
    z.object({
      id: z.uuid(),
      queue: z.string(),
      name: z.string(),
      status: z.string(),
      attempts: z.number(),
      max_attempts: z.number(),
      last_error: z.string().nullable(),
      created_at: z.date(),
      finished_at: z.date().nullable(),
    }),
  ),
  notes: z.array(leadNoteSchema),
  flows: z.array(
    z.object({
      id: z.uuid(),
      machine: z.string(),
      mode: z.string(),
      state: z.string(),
      testing: z.boolean(),
      created_at: z.date(),
      updated_at: z.date(),
      events: z.array(
        z.object({
          seq: z.number(),
          type: z.string(),
          payload: z.record(z.string(), json),
          origin: z.string(),
          state_after: z.string(),
          created_at: z.string(),
        }),
      ),
    }),
  ),
});

export type LeadDetail = z.infer<typeof leadDetailSchema>;

export const leadDeletedSchema = z.object({ deleted: z.literal(true) });
