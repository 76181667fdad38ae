import { z } from 'zod';
import { GradingRules } from '../../grading/rules.js';
import { tierSchema } from '../common.js';
import { timestamp } from './common.js';

/**
 * Which past leads a re-grade covers, by their current tier, source and sign-up dates; test leads
 * only when asked. The dry run and the apply take the same scope and consider the same leads.
 */
export const regradeScopeSchema = z
  .strictObject({
    tier: tierSchema.optional(),
    source: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/, 'source must be a lead source such as website')
      .optional(),
    /** First day of sign-up (inclusive), YYYY-MM-DD in UTC. */
    from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
    /** Last day of sign-up (inclusive), YYYY-MM-DD in UTC. */
    to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
    includeTestLeads: z.boolean().default(false),
  })
  .refine((scope) => !scope.from || !scope.to || scope.from <= scope.to, {
    path: ['to'],
    message: 'to must not be before from',
  });
export type RegradeScope = z.infer<typeof regradeScopeSchema>;

/** Left out, the scope is every lead but the test leads, for the dry run and the apply alike. */
const scopeField = regradeScopeSchema.default({ includeTestLeads: false });

/** POST /api/admin/grading/dry-run: a proposed rule set and the leads to try it on. */
export const dryRunBodySchema = z.strictObject({ rules: GradingRules, scope: scopeField });

/** POST /api/admin/grading/apply: the rule set to put in force and the leads to re-grade under it (the dry run's scope). */
export const applyBodySchema = z.strictObject({
  rules: GradingRules,
  scope: scopeField,
  note: z.string().trim().max(500, 'note must be at most 500 characters').optional(),
});

/** One time a rule set was put in force. */
const applicationSchema = z.object({
  id: z.number().int(),
  version: z.string(),
  appliedAt: timestamp,
  /** The admin's email; null once that account is gone. */
  appliedBy: z.string().nullable(),
  /** The coach's note, as typed; an undo has none (`undoOf` says what it undid). */
  note: z.string().nullable(),
  /** The leads it re-graded: its scope (an undo's is the undone application's). */
  scope: regradeScopeSchema,
  /** Leads given a new result under it. */
  regraded: z.number().int(),
  /** Of those, the ones whose tier changed. */
  moved: z.number().int(),
  /** The application this one undid, when it was an undo. */
  undoOf: z.number().int().nullable(),
});
export type GradingApplication = z.infer<typeof applicationSchema>;

/** GET /api/admin/grading: the rules in force, the history of applications and what an undo would restore. */
export const gradingViewSchema = z.object({
  inForce: z.object({
    version: z.string(),
    rules: GradingRules,
    /** True while the rules the product shipped with are in force (nothing applied yet, or undone back to them). */
    builtIn: z.boolean(),
    appliedAt: timestamp.nullable(),
  }),
  /** Latest first. */
  history: z.array(applicationSchema),
  /** The version an undo would put back in force; null when there is nothing to undo. */
  undoTo: z.string().nullable(),
});
export type GradingView = z.infer<typeof gradingViewSchema>;

/** A lead whose tier a rule set changes. */
const movedLeadSchema = z.object({
  leadId: z.uuid(),
  name: z.string(),
  email: z.string(),
  from: tierSchema,
  to: tierSchema,
  fromTotal: z.number(),
  toTotal: z.number(),
});
export type MovedLead = z.infer<typeof movedLeadSchema>;

/** What a rule set does to past leads: counts per tier move, and the leads that move. */
export const regradeReportSchema = z.object({
  /** The version the rule set has (an identical stored set keeps its version) or would get. */
  version: z.string(),
  /** Leads in scope with a result: the same leads for a dry run and an apply of the same scope. */
  considered: z.number().int(),
  /** Of those, leads whose answers were not stored with their result (graded before rule sets existed), left as they are. */
  skipped: z.number().int(),
  unchanged: z.number().int(),
  moved: z.number().int(),
  /** Every from → to pair with at least one lead, same-tier pairs included. */
  moves: z.array(z.object({ from: tierSchema, to: tierSchema, leads: z.number().int() })),
  /** The leads that change tier, largest score change first, at most 500. */
  leads: z.array(movedLeadSchema),
  truncated: z.boolean(),
});
export type RegradeReport = z.infer<typeof regradeReportSchema>;

/** The answer to an apply or an undo: the report of what changed and the new application. */
export const applyResultSchema = regradeReportSchema.extend({ application: applicationSchema });
export type ApplyResult = z.infer<typeof applyResultSchema>;
