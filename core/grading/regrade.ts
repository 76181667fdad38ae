import type pg from 'pg';
import {
  gradeAssessment,
  GradeInput,
  type GradeResult,
  type GradingRuleSet,
  type GradingRules,
  type Tier,
} from '#machines/grading/index.js';
import type { ApplyResult, MovedLead, RegradeReport, RegradeScope } from '#machines/protocol/admin/grading.js';
import { SCORE_NAMES } from '#machines/grading/score-names.js';
import { inTransaction } from '../db/transaction.js';
import { HttpError } from '../http-error.js';
import { activeTargets } from '../integrations/settings.js';
import { insertMarketingSyncJobs } from '../integrations/marketing-sync.js';
import { recordRegradeMoves } from '../leads/interactions.js';
import { insertJob } from '../queues/outbox.js';
import { storeRegradedResults } from './results-store.js';
import { applicationView, lockGradingRules, recordApplication, undoTarget, versionFor } from './rule-sets.js';

/** At most this many moved leads are listed in a report; the counts always cover them all. */
const LISTED_LEADS = 500;

/** A lead's latest result, the one a rule set re-grades. */
interface Candidate {
  id: string;
  lead_id: string;
  flow_id: string | null;
  diagnostic_id: string | null;
  tier: Tier;
  total_score: number;
  grade_input: unknown;
  name: string;
  email: string;
}

/**
 * The leads a re-grade covers: those in a scope (the dry run and the apply, so both consider the
 * same leads), or the leads an application re-graded (its undo). An undo cannot evaluate the undone
 * scope again: a scope by current tier names the tier that application moved some of them out of.
 */
type Population = { scope: RegradeScope } | { regradedBy: number };

/**
 * Each covered lead's latest result. A retake prompt (gaming detected) is not an outcome: the
 * lead's tier comes from the result before it, so it is passed over.
 */
async function candidates(db: pg.ClientBase, population: Population): Promise<Candidate[]> {
  const where = ['NOT r.gaming_detected'];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  let tier: Tier | undefined;
  // test or real as lead_facts says; an undo covers whoever its application re-graded
  const includeTest = 'regradedBy' in population || population.scope.includeTestLeads;
  const leads = `lead_facts(${param(includeTest)})`;
  if ('regradedBy' in population) {
    where.push(`r.lead_id IN (SELECT lead_id FROM assessment_results WHERE application_id = ${param(population.regradedBy)})`);
  } else {
    const { scope } = population;
    tier = scope.tier;
    if (scope.source) where.push(`l.source = ${param(scope.source)}`);
    if (scope.from) where.push(`l.created_at >= ${param(scope.from)}::date`);
    if (scope.to) where.push(`l.created_at < ${param(scope.to)}::date + 1`);
  }
  const latest = await db.query<Candidate>(
    `SELECT DISTINCT ON (r.lead_id) r.id, r.lead_id, r.flow_id, r.diagnostic_id, r.tier, r.total_score::float8 AS total_score,
            r.grade_input, l.name, l.email
     FROM assessment_results r JOIN ${leads} l USING (lead_id)
     WHERE ${where.join(' AND ')}
     ORDER BY r.lead_id, r.created_at DESC, r.id DESC`,
    params,
  );
  // the current tier is the latest result's, not any earlier one's
  return tier ? latest.rows.filter((row) => row.tier === tier) : latest.rows;
}

interface Regraded {
  candidate: Candidate;
  input: GradeInput;
  result: GradeResult;
}

/** Grades each candidate under the rules; a result without stored answers is skipped, never guessed. */
function regradeAll(rows: Candidate[], ruleSet: GradingRuleSet): { regraded: Regraded[]; skipped: number } {
  const regraded: Regraded[] = [];
  let skipped = 0;
  for (const candidate of rows) {
    const input = GradeInput.safeParse(candidate.grade_input);
    if (!input.success) {
      skipped += 1;
      continue;
    }
    try {
      regraded.push({ candidate, input: input.data, result: gradeAssessment(input.data, { ruleSet }) });
    } catch {
      // answers on a bank this build no longer carries cannot be re-graded
      skipped += 1;
    }
  }
  return { regraded, skipped };
}

/** The counts and the moved leads of a re-grade, as the dry run shows them. */
function report(version: string, considered: number, skipped: number, regraded: Regraded[]): RegradeReport {
  const pairs = new Map<string, { from: Tier; to: Tier; leads: number }>();
  const moved: MovedLead[] = [];
  for (const { candidate, result } of regraded) {
    const key = `${candidate.tier}>${result.tier}`;
    const pair = pairs.get(key) ?? { from: candidate.tier, to: result.tier, leads: 0 };
    pair.leads += 1;
    pairs.set(key, pair);
    if (candidate.tier !== result.tier) {
      moved.push({
        leadId: candidate.lead_id,
        name: candidate.name,
        email: candidate.email,
        from: candidate.tier,
        to: result.tier,
        fromTotal: candidate.total_score,
        toTotal: result.totalScore,
      });
    }
  }
  moved.sort((a, b) => Math.abs(b.toTotal - b.fromTotal) - Math.abs(a.toTotal - a.fromTotal) || a.email.localeCompare(b.email));
  const order: Tier[] = ['book_call', 'homework', 'nurture'];
  const moves = [...pairs.values()].sort(
    (a, b) => order.indexOf(a.from) - order.indexOf(b.from) || order.indexOf(a.to) - order.indexOf(b.to),
  );
  return {
    version,
    considered,
    skipped,
    unchanged: regraded.length - moved.length,
    moved: moved.length,
    moves,
    leads: moved.slice(0, LISTED_LEADS),
    truncated: moved.length > LISTED_LEADS,
  };
}

/**
 * The dry run: what these rules would do to the leads in scope, computed in a read-only
 * transaction, so it cannot change a row whatever happens inside it.
 */
export async function dryRun(pool: pg.Pool, rules: GradingRules, scope: RegradeScope): Promise<RegradeReport> {
  return inTransaction(pool, async (client) => {
    await client.query('SET TRANSACTION READ ONLY');
    const version = await versionFor(client, rules, null, false);
    const rows = await candidates(client, { scope });
    const { regraded, skipped } = regradeAll(rows, { version, rules });
    return report(version, rows.length, skipped, regraded);
  });
}

/**
 * A moved lead's events: a line in its activity, its email-marketing sync (its tier changed), and a
 * lead.regraded POST for the automation card while it is on (born here, so it is sent exactly when the re-grade commits).
 */
async function recordMoves(client: pg.ClientBase, applicationId: number, version: string, regraded: Regraded[]): Promise<void> {
  const moved = regraded.filter(({ candidate, result }) => candidate.tier !== result.tier);
  if (moved.length === 0) return;
  await recordRegradeMoves(
    client,
    moved.map(({ candidate, result }) => ({
      leadId: candidate.lead_id,
      content: `Re-graded under ${version}: ${candidate.tier} → ${result.tier} (${SCORE_NAMES.qualification.toLowerCase()} ${candidate.total_score} → ${result.totalScore}).`,
      metadata: { applicationId, version, from: candidate.tier, to: result.tier },
    })),
  );
  const targets = await activeTargets(client);
  const movedLeads = moved.map(({ candidate }) => candidate.lead_id);
  if (targets.has('email_marketing')) await insertMarketingSyncJobs(client, movedLeads);
  if (!targets.has('automation')) return;
  const occurredAt = new Date().toISOString();
  for (const { candidate, result } of moved) {
    if (!candidate.flow_id) continue;
    const data = {
      name: candidate.name,
      email: candidate.email,
      tier: result.tier,
      previousTier: candidate.tier,
      // the scores named as on every other surface (machines/grading/score-names.ts)
      qualificationScore: result.totalScore,
      leadershipScore: result.compositeScore,
      gradingVersion: version,
    };
    await insertJob(client, {
      queue: 'webhooks',
      name: 'automation:lead.regraded',
      payload: {
        target: 'automation',
        body: { event: 'lead.regraded', leadId: candidate.lead_id, flowId: candidate.flow_id, occurredAt, data },
      },
      flowId: candidate.flow_id,
      leadId: candidate.lead_id,
    });
  }
}

/** What an apply puts in force and over which leads, decided under the lock. */
interface Change {
  rules: GradingRules;
  /** Recorded with the application; an undo's is the undone application's. */
  scope: RegradeScope;
  note?: string | undefined;
  /** An undo re-grades the leads this application re-graded. */
  undoOf?: number;
}

/**
 * Puts a rule set in force: each covered lead's latest result with stored answers is re-graded into
 * a new result, the leads' tiers follow, moved leads get their events, and new assessments are
 * graded under it from the commit on. Leads outside the scope keep their results (each names the
 * rules that produced it); the application records its scope. One transaction under the exclusive
 * rules lock, inside which `decide` picks the rules (an undo reads the history there, so two undos
 * at once cannot both undo the same application). The visitors' flows are not touched: what a
 * visitor was shown stays what they were shown (docs/decisions/0022).
 */
async function apply(pool: pg.Pool, adminId: string, decide: (client: pg.ClientBase) => Change | Promise<Change>): Promise<ApplyResult> {
  return inTransaction(pool, async (client) => {
    await lockGradingRules(client, 'exclusive');
    const change = await decide(client);
    const version = await versionFor(client, change.rules, adminId, true);
    const rows = await candidates(client, change.undoOf === undefined ? { scope: change.scope } : { regradedBy: change.undoOf });
    const { regraded, skipped } = regradeAll(rows, { version, rules: change.rules });
    const result = report(version, rows.length, skipped, regraded);
    const applicationId = await recordApplication(client, {
      version,
      adminId,
      note: change.note ?? null,
      scope: change.scope,
      regraded: regraded.length,
      moved: result.moved,
      undoOf: change.undoOf ?? null,
    });
    await storeRegradedResults(
      client,
      applicationId,
      regraded.map(({ candidate, input, result }) => ({
        leadId: candidate.lead_id,
        flowId: candidate.flow_id,
        diagnosticId: candidate.diagnostic_id,
        input,
        result,
      })),
    );
    await recordMoves(client, applicationId, version, regraded);
    return { ...result, application: await applicationView(client, applicationId) };
  });
}

/** POST /api/admin/grading/apply: re-grades the leads the dry run of the same scope considered. */
export async function applyRules(
  pool: pg.Pool,
  rules: GradingRules,
  scope: RegradeScope,
  adminId: string,
  note?: string,
): Promise<ApplyResult> {
  return apply(pool, adminId, () => ({ rules, scope, note }));
}

/**
 * POST /api/admin/grading/undo: applies again the rules in force before the latest application,
 * over the leads it re-graded; 409 when nothing was applied.
 */
export async function undoLastApplication(pool: pg.Pool, adminId: string): Promise<ApplyResult> {
  return apply(pool, adminId, async (client) => {
    const target = await undoTarget(client);
    if (!target) throw new HttpError(409, 'There is nothing to undo: no rule set was applied, so the built-in rules are in force.');
    return { rules: target.ruleSet.rules, scope: target.scope, undoOf: target.undoOf };
  });
}
