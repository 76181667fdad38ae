import { z } from 'zod';
import { sentEmailSchema } from './emails.js';
import { FiredRule } from '../../grading/rules.js';
import { tierSchema } from '../common.js';
import { jsonObject, pageFields, timestamp } from './common.js';
import { adminLeadSchema } from './overview.js';
import { includeTestSchema, timeZoneSchema } from './scope.js';

/** At most this many rows per page of the admin lead table. */
const LEADS_MAX_PAGE_SIZE = 100;
const LEAD_SORTS = ['created_at', 'email', 'leadership_score', 'qualification_score'] as const;

const isoDate = z.iso.date('Use a date like 2026-01-31.');

/**
 * The filters shared by the table and the CSV export. `from` and `to` are whole days in `tz` (the
 * admin's time zone, as on the Overview), both included; test leads only with includeTest.
 */
export const leadFiltersSchema = z.object({
  q: z.string().trim().max(200).optional(),
  source: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/, 'Not a lead source.')
    .optional(),
  tier: tierSchema.optional(),
  tag: z.string().trim().min(1).max(60).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  tz: timeZoneSchema,
  includeTest: includeTestSchema,
  sort: z.enum(LEAD_SORTS).default('created_at'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export const leadListQuerySchema = leadFiltersSchema.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(LEADS_MAX_PAGE_SIZE).default(25),
});

export type LeadFilters = z.infer<typeof leadFiltersSchema>;
export type LeadListQuery = z.infer<typeof leadListQuerySchema>;

export const leadPageSchema = z.object({ items: z.array(adminLeadSchema), ...pageFields });
export type LeadPage = z.infer<typeof leadPageSchema>;

export const leadNoteSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid(),
  author_id: z.uuid().nullable(),
  author_email: z.string().nullable(),
  body: z.string(),
  created_at: timestamp,
});
export type LeadNote = z.infer<typeof leadNoteSchema>;

export const leadNoteBodySchema = z.object({
  body: z.string().trim().min(1, 'Write a note first.').max(5000, 'A note is at most 5000 characters.'),
});

/**
 * A diagnostic screen beside its answer, as the coach reads it: looked up in the bundled content
 * by server/admin/lead-answers.ts.
 */
const diagnosticAnswerViewSchema = z.object({
  /** The item's id in the bank. */
  id: z.string(),
  type: z.string(),
  /** The statement, scenario or ranking prompt. */
  question: z.string(),
  /** The rating or option in words, or a ranking's labels from first to last. */
  answer: z.union([z.string(), z.array(z.string())]),
  /** A vignette's follow-up confidence in words. */
  confidence: z.string().nullable(),
  timedOut: z.boolean(),
  responseMs: z.number(),
});
export type DiagnosticAnswerView = z.infer<typeof diagnosticAnswerViewSchema>;

/** A section of the diagnostic as the visitor went through it. */
const diagnosticSectionViewSchema = z.object({ title: z.string(), answers: z.array(diagnosticAnswerViewSchema) });
export type DiagnosticSectionView = z.infer<typeof diagnosticSectionViewSchema>;

/** One survey question beside its answer. */
const surveyAnswerViewSchema = z.object({
  /** The question's id in the content. */
  id: z.string(),
  question: z.string(),
  /** The chosen option's label or the text typed; null when an optional question was left blank. */
  answer: z.string().nullable(),
});
export type SurveyAnswerView = z.infer<typeof surveyAnswerViewSchema>;

export const leadDetailSchema = z.object({
  /** The lead's facts, test data included (a test lead's page shows its test payments). */
  lead: adminLeadSchema,
  /** The result behind the lead's tier and scores: its latest outcome (never a rushed attempt). */
  result: z
    .object({
      id: z.uuid(),
      tier: tierSchema,
      qualification: z.string(),
      archetype: z.string(),
      leadership_score: z.number(),
      qualification_score: z.number(),
      /** The three parts the qualification score weighs. */
      diagnostic_score: z.number(),
      survey_score: z.number(),
      mirror_score: z.number(),
      fallback: z.boolean(),
      scores: z.record(z.string(), z.number()),
      qualificationReasoning: z.array(z.string()),
      /** The rules that fired with their points; empty for results graded before they were recorded. */
      rulesFired: z.array(FiredRule),
      grading_version: z.string(),
      narrative: z.string().nullable(),
      created_at: timestamp,
    })
    .nullable(),
  /** Every result the lead has had, latest first: a re-grade adds one beside the old ones; a rushed attempt has no tier. */
  results: z.array(
    z.object({
      id: z.uuid(),
      tier: tierSchema.nullable(),
      /** A rushed attempt (gaming detected): the lead was asked to retake. */
      rushed: z.boolean(),
      qualification_score: z.number(),
      grading_version: z.string(),
      /** True for a result written by applying a rule set rather than by grading the assessment. */
      regraded: z.boolean(),
      created_at: timestamp,
    }),
  ),
  /** Each diagnostic, latest first: its answers beside their questions, in words, by section. */
  diagnostics: z.array(
    z.object({
      id: z.uuid(),
      bank_version: z.string(),
      started_at: timestamp,
      sections: z.array(diagnosticSectionViewSchema),
    }),
  ),
  /** Each survey response, latest first: every question in the survey's order beside its answer. */
  surveys: z.array(
    z.object({
      id: z.uuid(),
      /** 'older' for the older eight-answer survey, graded by its own points and tier rule. */
      shape: z.enum(['current', 'older']),
      answers: z.array(surveyAnswerViewSchema),
      survey_score: z.number().nullable(),
      created_at: timestamp,
    }),
  ),
  mirrorSessions: z.array(
    z.object({
      id: z.uuid(),
      saved: z.boolean(),
      turns: z.number(),
      completed: z.boolean(),
      created_at: timestamp,
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
      refunded_at: timestamp.nullable(),
      created_at: timestamp,
    }),
  ),
  emails: z.array(sentEmailSchema),
  jobs: z.array(
    z.object({
      id: z.uuid(),
      queue: z.string(),
      name: z.string(),
      status: z.string(),
      attempts: z.number(),
      max_attempts: z.number(),
      last_error: z.string().nullable(),
      /** Why a completed job did nothing: an email not due, not asked for or over the per-recipient limit (decision 0045). */
      skipped: z.string().nullable(),
      created_at: timestamp,
      finished_at: timestamp.nullable(),
    }),
  ),
  notes: z.array(leadNoteSchema),
  /**
   * Captures of the lead's address by a visitor who had not proven it (decision 0044), newest
   * first: what they typed and were graded, kept beside the lead until the address is confirmed.
   */
  captureAttempts: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      email: z.string(),
      tier: tierSchema.nullable(),
      archetype: z.string().nullable(),
      qualification_score: z.number().nullable(),
      confirmation_sent_at: timestamp.nullable(),
      confirmed_at: timestamp.nullable(),
      created_at: timestamp,
    }),
  ),
  flows: z.array(
    z.object({
      id: z.uuid(),
      machine: z.string(),
      mode: z.string(),
      state: z.string(),
      testing: z.boolean(),
      created_at: timestamp,
      updated_at: timestamp,
      events: z.array(
        z.object({
          seq: z.number(),
          type: z.string(),
          payload: jsonObject,
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
