import type { FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { Config } from '#core/config/index.js';
import { diagnosticScreens } from '#machines/content/index.js';
import type { FlowSnapshotResponse, FlowStartBody } from '#machines/protocol/api.js';
import type { CompletedPath, FlowResult, TokenCheck } from '#machines/protocol/assessment-flow.js';
import type { DiagnosticAnswers, KnownSession, LeadSession } from '#machines/protocol/common.js';
import { assessmentResultOf, assessmentSessionOf, completedPathOf, diagnosticAnswersOf } from '#machines/protocol/snapshots.js';
import { initializeFromToken } from '#core/leads/token-session.js';
import type { RouteDeps } from '../routes/deps.js';
import { notFound, ownedLeadFlow } from './owned.js';

/** The ref value the community platform puts on its links ("the community-platform marker"). */
const COMMUNITY_REF = 'community';

function knownSessionOf({ leadId, email, name, source, leadToken }: LeadSession): KnownSession {
  return { leadId, email, name, source, leadToken };
}

/**
 * The lead session a browser says it already holds, as the server knows it: only a lead this
 * visitor's own flows are bound to counts, and its details come from that flow, not the browser.
 */
async function ownedKnownSession(pool: pg.Pool, visitorId: string, claimed: KnownSession | null): Promise<KnownSession | null> {
  if (!claimed?.leadId) return null;
  const flow = await ownedLeadFlow(pool, visitorId, claimed.leadId);
  const session = flow && assessmentSessionOf(flow.snapshot);
  return session?.leadId ? knownSessionOf(session) : null;
}

/** The steps an assessment flow stands at once it has shown its result. */
const COMPLETED_STEPS = [
  'results',
  'completed_results',
  'yes_flow',
  'maybe_flow',
  'no_flow',
  'payment',
  'homework_processing',
  'payment_success',
];

/**
 * The visitor's completed assessment, to show again at completed_results: the
 * newest of their own (non-testing) assessment flows that got past its results since they last
 * asked to retake, with its result, where its path ended and its lead session. Another visitor's
 * result, even for the same email address, is never found, nor an unconfirmed attempt's.
 */
async function storedAssessment(
  pool: pg.Pool,
  visitorId: string,
): Promise<{ result: FlowResult; path: CompletedPath | null; session: KnownSession } | null> {
  const found = await pool.query<{ snapshot: unknown }>(
    `SELECT f.snapshot FROM flows f JOIN visitors v ON v.id = f.visitor_id
     WHERE f.visitor_id = $1 AND f.machine = 'assessmentFlow' AND NOT f.testing
       -- bound to its lead: an unconfirmed attempt's flow opens nothing of the lead (decision 0044)
       AND f.lead_id IS NOT NULL
       AND split_part(f.state, '.', 1) = ANY($2::text[])
       AND (v.results_cleared_at IS NULL OR f.updated_at > v.results_cleared_at)
     ORDER BY f.updated_at DESC LIMIT 1`,
    [visitorId, COMPLETED_STEPS],
  );
  const snapshot = found.rows[0]?.snapshot;
  const result = assessmentResultOf(snapshot);
  const session = assessmentSessionOf(snapshot);
  return result && session?.leadId ? { result, path: completedPathOf(snapshot), session: knownSessionOf(session) } : null;
}

/**
 * The answers of a standalone diagnostic this visitor finished (its flow is grading or graded);
 * any other id, or another visitor's diagnostic, is a 404.
 */
async function finishedStandaloneDiagnostic(
  pool: pg.Pool,
  visitorId: string,
  diagnosticId: string,
): Promise<{ id: string; answers: DiagnosticAnswers }> {
  const found = await pool.query<{ snapshot: unknown }>(
    `SELECT f.snapshot FROM diagnostics g JOIN flows f ON f.id = g.flow_id
     WHERE g.id = $1 AND g.visitor_id = $2 AND f.machine = 'diagnostic' AND f.state IN ('grading', 'graded')`,
    [diagnosticId, visitorId],
  );
  const answers = diagnosticAnswersOf(found.rows[0]?.snapshot);
  if (Object.keys(answers).length === 0) throw notFound('finished diagnostic');
  return { id: diagnosticId, answers };
}

interface StartPlan {
  input: unknown;
  leadId: string | null;
  /** Whether the flow is a test: the browser's testing mode, unless the flow starts on a lead, which already is one or not. */
  testing: boolean;
}

/** Test or real, as lead_facts says: a flow that starts on a known lead is what that lead is. */
async function isTestLead(pool: pg.Pool, leadId: string): Promise<boolean> {
  const found = await pool.query<{ test: boolean }>('SELECT test FROM lead_facts(true) WHERE lead_id = $1', [leadId]);
  return found.rows[0]?.test ?? false;
}

/** The follow-ups' waits this server is configured with: a new flow keeps them, unless the admin's reminder settings say otherwise when a timer is set (decision 0049). */
function followUpDelays(config: Config) {
  const ms = (hours: number) => Math.max(1, Math.round(hours * 3_600_000));
  return { bookingReminderMs: ms(config.BOOKING_REMINDER_HOURS), assessmentReminderMs: ms(config.ASSESSMENT_REMINDER_HOURS) };
}

async function planStart(
  pool: pg.Pool,
  config: Config,
  visitorId: string,
  body: FlowStartBody,
  checked: TokenCheck | undefined,
  welcomeBack: boolean,
): Promise<StartPlan> {
  switch (body.machine) {
    case 'assessmentFlow': {
      // a returning visitor opens at completed_results, on the lead of the assessment they completed
      const offered = welcomeBack && body.mode === 'assessment' && !body.testing && !body.token && !checked && !body.diagnosticId;
      const stored = offered ? await storedAssessment(pool, visitorId) : null;
      if (stored) {
        const { result: storedResult, path: storedPath, session: knownSession } = stored;
        return {
          input: {
            mode: body.mode,
            communityReferral: body.ref === COMMUNITY_REF,
            knownSession,
            storedResult,
            storedPath,
            followUpDelays: followUpDelays(config),
          },
          leadId: knownSession.leadId,
          testing: false,
        };
      }
      const standaloneDiagnostic = body.diagnosticId ? await finishedStandaloneDiagnostic(pool, visitorId, body.diagnosticId) : null;
      const token = checked ?? (body.token ? (await initializeFromToken(pool, body.token)).check : null);
      const knownSession = await ownedKnownSession(pool, visitorId, body.knownSession);
      const leadId = (token?.status === 'valid' ? token.leadId : null) ?? knownSession?.leadId ?? null;
      const testing = leadId ? await isTestLead(pool, leadId) : body.testing;
      return {
        input: {
          mode: body.mode,
          testingMode: testing,
          token,
          communityReferral: body.ref === COMMUNITY_REF,
          knownSession,
          standaloneDiagnostic,
          followUpDelays: followUpDelays(config),
        },
        leadId,
        testing,
      };
    }
    case 'diagnostic':
      return { input: { screens: diagnosticScreens }, leadId: null, testing: body.testing };
    case 'mirror':
      return { input: undefined, leadId: null, testing: body.testing };
  }
}

/**
 * Starts a flow for this request's visitor (issuing the visitor cookie when the browser has none):
 * the one way a flow comes to exist, for POST /api/flows and the adapters that start one. A token
 * the caller has already checked (and so spent) is passed as `checked`. `welcomeBack` is the
 * modal opening (POST /api/flows): a returning visitor's assessment opens at their completed
 * results; an adapter that needs a capture screen starts one afresh.
 */
export async function startVisitorFlow(
  deps: RouteDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  body: FlowStartBody,
  checked?: TokenCheck,
  { welcomeBack = false }: { welcomeBack?: boolean } = {},
): Promise<FlowSnapshotResponse> {
  // only the visitor who finished it can go on from a standalone diagnostic: nothing is issued to anyone else
  if (body.diagnosticId && !request.visitorId) throw notFound('finished diagnostic');
  const visitorId = await deps.visitors.ensure(request, reply);
  const plan = await planStart(deps.pool, deps.config, visitorId, body, checked, welcomeBack);
  return deps.engine.start(body.machine, plan.input, { mode: body.mode, testing: plan.testing, leadId: plan.leadId, visitorId });
}
