import { z } from 'zod';

/** Rows each list of the admin data bundle holds at most, newest first. */
export const ADMIN_LIST_LIMIT = 500;

const jsonObject = z.record(z.string(), z.unknown());

export const adminLeadSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  source: z.string(),
  tier: z.enum(['book_call', 'homework', 'nurture']).nullable(),
  archetype: z.string().nullable(),
  total_score: z.number().nullable(),
  tags: z.array(z.string()),
  created_at: z.date(),
});

const adminDiagnosticResultSchema = z.object({
  id: z.uuid(),
  diagnostic_id: z.uuid(),
  lead_id: z.uuid().nullable(),
  lead_email: z.string().nullable(),
  archetype: z.string(),
  scores: jsonObject,
  narrative: z.string(),
  completed_at: z.date(),
});

const adminMirrorSessionSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid().nullable(),
  lead_email: z.string().nullable(),
  saved: z.boolean(),
  turns: z.number().int(),
  completed: z.boolean(),
  created_at: z.date(),
  updated_at: z.date(),
});

const adminSurveyResponseSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid(),
  lead_email: z.string().nullable(),
  answers: jsonObject,
  survey_score: z.number().nullable(),
  created_at: z.date(),
});

export const adminContactSubmissionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  message: z.string(),
  handled: z.boolean(),
  handled_at: z.date().nullable(),
  created_at: z.date(),
});

/** The product's admin data bundle, answered by admin-fetch-data. */
export const adminDataSchema = z.object({
  leads: z.array(adminLeadSchema),
  diagnosticResults: z.array(adminDiagnosticResultSchema),
  mirrorSessions: z.array(adminMirrorSessionSchema),
  surveyResponses: z.array(adminSurveyResponseSchema),
  contactSubmissions: z.array(adminContactSubmissionSchema),
});

/** The overview screen: five counters, the latest 5 leads and the latest 3 messages. */
export const adminOverviewSchema = z.object({
  counts: z.object({
    totalLeads: z.number().int(),
    diagnosticsCompleted: z.number().int(),
    mirrorSessions: z.number().int(),
    surveyResponses: z.number().int(),
    contactMessages: z.number().int(),
  }),
  recentLeads: z.array(adminLeadSchema.pick({ id: true, email: true, source: true, created_at: true })),
  recentMessages: z.array(
    adminContactSubmissionSchema.pick({ id: true, name: true, email: true, company: true, message: true, created_at: true }),
  ),
});

export const leadNoteSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid(),
  author_id: z.uuid().nullable(),
  author_email: z.string().nullable(),
  body: z.string(),
  created_at: z.date(),
});

export const leadNoteBodySchema = z.object({
  body: z.string().trim().min(1, 'Write a note first.').max(5000, 'A note is at most 5000 characters.'),
});

export const idParamsSchema = z.object({ id: z.uuid() });

export const contactHandledBodySchema = z.object({ handled: z.boolean() });

export const purgedTestLeadsSchema = z.object({ deleted: z.number().int() });
