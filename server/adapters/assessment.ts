import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assessmentFlowNotices, COMMUNITY_MEMBER_NAME } from '#machines/assessment-flow/assessment-flow.copy.js';
import { missingSurveyAnswers, resultTier } from '#machines/assessment-flow/assessment-flow.guards.js';
import type { FlowSnapshotResponse } from '#machines/protocol/api.js';
import { homeworkSourceSchema, type HomeworkSource } from '#machines/protocol/assessment-flow.js';
import {
  diagnosticAnswersSchema,
  emailSchema,
  mirrorTurnSchema,
  surveyAnswersSchema,
  type SurveyAnswers,
} from '#machines/protocol/common.js';
import {
  assessmentResultOf,
  assessmentSessionOf,
  homeworkSourceOf,
  noticeOf,
  paymentPurposeOf,
  testingModeOf,
} from '#machines/protocol/snapshots.js';
import { FlowConflictError } from '#core/flows/flow-store.js';
import { waitForFlow } from '#core/flows/wait-for-flow.js';
import { HttpError } from '#core/http-error.js';
import { leadSourceOf, TEST_TAGS } from '#core/leads/lead-service.js';
import { giveSavedSessionToLead } from '#core/mirror/store.js';
import type { RouteDeps } from '../routes/deps.js';
import { startVisitorFlow } from '../visitors/start-flow.js';
import { latestOwnedAssessment, notFound, ownedFlow, ownedJourneyOfLead, ownedLeadFlow } from '../visitors/owned.js';

/**
 * The named calls (createOrUpdateLead, getSession, submitQualificationData, the workflow
 * proxy's lead-assessment and send-homework) as adapters: each is an event on the caller's own
 * assessment flow, applied by the flow engine, and answers in the product's shape once the flow's own
 * jobs have done the work. None grades, emails or stores anything by itself, and none reaches a
 * lead through another visitor's flow.
 */

/** The product's message for grading asked for before a lead exists. */
export const NO_LEAD_MESSAGE = 'No lead ID found. Please complete email capture first.';

/** The longest an adapter waits for the flow's job (the proxy's 30 s timeout). */
export const ADAPTER_WAIT_MS = 30_000;

/** Applies a visitor's event to their own flow; a refusal is a 409 naming where the flow stands. */
async function applyVisitorEvent(
  deps: RouteDeps,
  visitorId: string,
  flowId: string,
  event: { type: string; [key: string]: unknown },
): Promise<FlowSnapshotResponse> {
  try {
    return await deps.engine.apply(flowId, event, 'client', { visitorId });
  } catch (error) {
    if (error instanceof FlowConflictError)
      throw new HttpError(409, `This assessment is at ${error.flow.state}; ${event.type} does not apply there.`);
    throw error;
  }
}

// ---- createOrUpdateLead ------------------------------------------------------------------------

export const captureBodySchema = z.object({
  email: emailSchema,
  name: z.string().trim().max(200).optional(),
  /** Testing mode: a new lead tagged test and testing-phase, no dedupe. */
  testing: z.boolean().default(false),
  /** The visitor's assessment flow to capture on; default: their open capture, else a new flow. */
  flowId: z.uuid().optional(),
  /** A saved /mirror session of this visitor's own, to keep with the lead (the Mirror's save form). */
  mirrorSessionId: z.uuid().optional(),
});

/** What createOrUpdateLead answers: the lead, and only what this visitor typed. */
export const captureResponseSchema = z.object({
  leadId: z.uuid(),
  flowId: z.uuid(),
  email: z.string(),
  name: z.string(),
  source: z.string(),
  tags: z.array(z.string()),
});

const CAPTURE_STATES = ['capture.editing', 'email_capture.editing'] as const;

/**
 * createOrUpdateLead(email, name): CAPTURE_SUBMIT (or EMAIL_SUBMIT) on the visitor's assessment
 * flow, so the lead is saved by the flow's own createLead (one lead per address, as the spec asks).
 * The answer never carries the stored lead's name or tags: an address someone else used before
 * gives this visitor a lead id and nothing about that lead.
 */
export async function captureLead(deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, body: z.infer<typeof captureBodySchema>) {
  // someone else's flow is refused before anything (even a visitor cookie) is stored
  if (body.flowId && !(await ownedFlow(deps.pool, request.visitorId, body.flowId, 'assessmentFlow'))) throw notFound('assessment');
  const visitorId = await deps.visitors.ensure(request, reply);
  let flowId: string;
  if (body.flowId) {
    flowId = body.flowId;
  } else {
    const open = await latestOwnedAssessment(deps.pool, visitorId, CAPTURE_STATES);
    flowId = open?.id ?? (await startVisitorFlow(deps, request, reply, newAssessment(body.testing))).flowId;
  }
  const flow = await deps.engine.get(flowId, { visitorId });
  const name = body.name ?? '';
  const event = flow.state.startsWith('email_capture')
    ? { type: 'EMAIL_SUBMIT', email: body.email, name }
    : { type: 'CAPTURE_SUBMIT', email: body.email, name: name || COMMUNITY_MEMBER_NAME };
  const after = await applyVisitorEvent(deps, visitorId, flowId, event);
  const session = assessmentSessionOf(after.snapshot);
  if (!session?.leadId) {
    // the email-capture form's own checks, or the lead could not be written
    const notice = noticeOf(after.snapshot);
    if (!notice?.description || notice.description === assessmentFlowNotices.captureFailed.description) {
      throw new HttpError(503, assessmentFlowNotices.captureFailed.description);
    }
    throw new HttpError(400, notice.description);
  }
  // a saved Mirror chat goes to the lead only when this visitor acts for it (not an unconfirmed attempt)
  if (body.mirrorSessionId && (await ownedLeadFlow(deps.pool, visitorId, session.leadId))) {
    await giveSavedSessionToLead(deps.pool, body.mirrorSessionId, visitorId, session.leadId);
  }
  return {
    leadId: session.leadId,
    flowId,
    email: body.email,
    name: session.name ?? name,
    source: leadSourceOf(session.source),
    // what the lead was written as: the flow's test-or-real, not what this request asked for
    tags: testingModeOf(after.snapshot) ? [...TEST_TAGS] : [],
  };
}

function newAssessment(testing: boolean) {
  return { machine: 'assessmentFlow' as const, mode: 'assessment' as const, testing, knownSession: null };
}

// ---- getSession ----------------------------------------------------------------------------------

/** getSession(leadId): the lead session of the visitor's own flow bound to that lead. */
export async function leadSessionFor(deps: RouteDeps, visitorId: string | null, leadId: string) {
  const flow = await ownedJourneyOfLead(deps.pool, visitorId, leadId);
  const session = flow && assessmentSessionOf(flow.snapshot);
  if (!session?.leadId) throw notFound('lead');
  return { leadId: session.leadId, email: session.email, name: session.name, source: session.source, leadToken: session.leadToken };
}

// ---- lead-assessment / submitQualificationData -----------------------------------------------------

/**
 * The product's lead-assessment payload. Only leadId and survey are used: the diagnostic
 * answers and the Mirror chat are the ones the server recorded in the visitor's own flows, never
 * a copy sent here; the rest is accepted for the product's shape and ignored.
 */
export const leadAssessmentSchema = z.object({
  leadId: z.uuid().nullish(),
  email: z.string().max(320).nullish(),
  name: z.string().max(200).nullish(),
  assessment: diagnosticAnswersSchema.optional(),
  survey: surveyAnswersSchema,
  mirrorChat: z.array(mirrorTurnSchema).max(11).optional(),
  mirrorSessionId: z.uuid().nullish(),
  source: z.string().max(40).nullish(),
  timestamp: z.string().max(40).optional(),
  userAgent: z.string().max(512).optional(),
});

const isGrading = (flow: FlowSnapshotResponse) => flow.state === 'processing.grading';

/** The flow's result in the shape the product's caller reads. */
function assessmentAnswer(flow: FlowSnapshotResponse): Record<string, unknown> | null {
  const result = assessmentResultOf(flow.snapshot);
  if (!result) return null;
  return {
    success: true,
    flowId: flow.flowId,
    ...result,
    tier: resultTier(result),
    diagnostic: {
      archetype: result.archetype,
      narrative: result.narrative,
      scores: result.scores,
      compositeScore: result.compositeScore,
      confidence: result.confidence,
    },
  };
}

function checkSurvey(survey: SurveyAnswers): void {
  const missing = missingSurveyAnswers(survey);
  if (missing.length) {
    throw new z.ZodError(missing.map((id) => ({ code: 'custom' as const, path: ['survey', id], message: 'required', input: undefined })));
  }
}

/**
 * lead-assessment and submitQualificationData: SURVEY_SUBMITTED on the visitor's own flow bound to
 * the lead, graded by the flow's grading job (the one grading path). A flow already graded answers
 * with its result; nothing is graded twice. Waits up to `waitMs` for the result.
 */
export async function submitAssessment(
  deps: RouteDeps,
  visitorId: string | null,
  leadId: string | null | undefined,
  survey: SurveyAnswers,
  waitMs: number,
) {
  if (!leadId) throw new HttpError(400, NO_LEAD_MESSAGE);
  const owned = await ownedJourneyOfLead(deps.pool, visitorId, leadId);
  if (!owned || !visitorId) throw notFound('lead');
  let flow: FlowSnapshotResponse = {
    flowId: owned.id,
    machine: owned.machine,
    version: owned.version,
    state: owned.state,
    snapshot: owned.snapshot,
  };
  if (flow.state === 'diagnostic' || flow.state === 'intro' || flow.state === 'mirror') {
    throw new HttpError(409, 'Finish the diagnostic first: the server grades the answers it recorded itself.');
  }
  if (flow.state === 'survey') {
    checkSurvey(survey);
    flow = await applyVisitorEvent(deps, visitorId, flow.flowId, { type: 'SURVEY_SUBMITTED', answers: survey });
  }
  if (waitMs > 0 && isGrading(flow)) flow = await waitForFlow(deps, flow.flowId, (f) => !isGrading(f), waitMs);
  return { flow, answer: assessmentAnswer(flow) };
}

// ---- send-homework -----------------------------------------------------------------------------------

/** The product's send-homework payload; email, name and diagnosticData are the flow's own, not these. */
export const sendHomeworkSchema = z.object({
  leadId: z.uuid().nullish(),
  email: z.string().max(320).nullish(),
  name: z.string().max(200).nullish(),
  sendHomework: z.boolean(),
  source: homeworkSourceSchema,
  diagnosticData: z.unknown().optional(),
});

type HomeworkOutcome = 'sending' | 'sent' | 'failed';

/** Where the flow's homework stands, read from its state and notice. */
function homeworkOutcome(flow: FlowSnapshotResponse, source: HomeworkSource): HomeworkOutcome | null {
  const chosen = homeworkSourceOf(flow.snapshot) === source;
  if (flow.state === 'homework_processing.sending') return chosen ? 'sending' : null;
  if (flow.state === 'homework_processing.sent') return chosen ? 'sent' : null;
  const notice = noticeOf(flow.snapshot);
  if (source === 'paid_homework' && flow.state.startsWith('payment_success') && paymentPurposeOf(flow.snapshot) === 'paid_homework') {
    return notice ? 'failed' : 'sent';
  }
  if (source === 'free_resources' && flow.state === 'maybe_flow' && notice && chosen) return 'failed';
  return null;
}

/**
 * send-homework: free resources are CHOOSE_FREE_RESOURCES on the visitor's own flow (its homework
 * job emails the lead's stored address with the flow's own result); paid homework is sent by the
 * flow itself once the payment is confirmed, so here it is only reported. Waits up to `waitMs`.
 */
export async function sendHomework(deps: RouteDeps, visitorId: string | null, data: z.infer<typeof sendHomeworkSchema>, waitMs: number) {
  if (!data.leadId) throw new HttpError(400, NO_LEAD_MESSAGE);
  const owned = await ownedJourneyOfLead(deps.pool, visitorId, data.leadId);
  if (!owned || !visitorId) throw notFound('lead');
  let flow = await deps.engine.get(owned.id, { visitorId });
  // the homework choice (again, after a failed send)
  if (data.source === 'free_resources' && flow.state === 'maybe_flow') {
    flow = await applyVisitorEvent(deps, visitorId, flow.flowId, { type: 'CHOOSE_FREE_RESOURCES' });
  }
  let outcome = homeworkOutcome(flow, data.source);
  if (outcome === null) {
    throw new HttpError(
      409,
      data.source === 'paid_homework'
        ? 'Pay for the homework first: it is sent once the payment is confirmed.'
        : 'Free resources are offered on the homework step of the assessment.',
    );
  }
  if (outcome === 'sending' && waitMs > 0) {
    flow = await waitForFlow(deps, flow.flowId, (f) => homeworkOutcome(f, data.source) !== 'sending', waitMs);
    outcome = homeworkOutcome(flow, data.source) ?? 'failed';
  }
  return { flowId: flow.flowId, outcome };
}
