import { z } from 'zod';
import { jsonObject, timestamp } from './common.js';
import { leadFactsSchema } from './lead-facts.js';
import { scopeEchoSchema } from './scope.js';

/** A lead as every admin list shows it: its facts. */
export const adminLeadSchema = leadFactsSchema;

const adminDiagnosticResultSchema = z.object({
  id: z.uuid(),
  diagnostic_id: z.uuid(),
  lead_id: z.uuid().nullable(),
  lead_email: z.string().nullable(),
  archetype: z.string(),
  scores: jsonObject,
  narrative: z.string(),
  completed_at: timestamp,
});

const adminMirrorSessionSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid().nullable(),
  lead_email: z.string().nullable(),
  saved: z.boolean(),
  turns: z.number().int(),
  completed: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

const adminSurveyResponseSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid(),
  lead_email: z.string().nullable(),
  answers: jsonObject,
  survey_score: z.number().nullable(),
  created_at: timestamp,
});

export const adminContactSubmissionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  message: z.string(),
  handled: z.boolean(),
  handled_at: timestamp.nullable(),
  created_at: timestamp,
});
export type ContactSubmission = z.infer<typeof adminContactSubmissionSchema>;

/** The product's admin data bundle, answered by admin-fetch-data (GET /api/admin/data). */
export const adminDataSchema = z.object({
  leads: z.array(adminLeadSchema),
  diagnosticResults: z.array(adminDiagnosticResultSchema),
  mirrorSessions: z.array(adminMirrorSessionSchema),
  surveyResponses: z.array(adminSurveyResponseSchema),
  contactSubmissions: z.array(adminContactSubmissionSchema),
});
export type AdminData = z.infer<typeof adminDataSchema>;

/**
 * The overview screen for a scope: five counters, the latest 5 leads and the latest 3 messages.
 * Total Leads, Diagnostics Completed and Survey Responses count leads (each once), as the funnel's
 * first steps do; Mirror Sessions and Contact Messages count those started or sent in the period.
 */
export const adminOverviewSchema = scopeEchoSchema.extend({
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
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

export const contactHandledBodySchema = z.object({ handled: z.boolean() });

export const purgedTestLeadsSchema = z.object({ deleted: z.number().int() });
