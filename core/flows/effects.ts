import type {
  GradingRequest,
  HomeworkRequest,
  LeadRequest,
  PaymentRequest,
  ReceiptRequest,
  ReminderRequest,
  ResultsEmailRequest,
  TimerRequest,
} from '#machines/assessment-flow/assessment-flow.effects.js';
import type { DiagnosticGradingRequest } from '#machines/diagnostic/diagnostic.actions.js';
import type { MirrorReplyRequest } from '#machines/protocol/mirror.js';
import type { QueueName } from '#machines/protocol/operations.js';
import { createOrUpdateLead, leadSourceOf } from '../leads/lead-service.js';
import type { FlowTx } from './engine.js';
import type { FlowRow } from './flow-store.js';
import { flowMachineVersions } from '#machines/flow-versions.js';

/** What transition() hands back for an effect: the action's type and its resolved params. */
interface ExecutableAction {
  type: string;
  params?: unknown;
}

type FollowUp = { type: string; [key: string]: unknown };
type Effect = (tx: FlowTx, flow: FlowRow, params: never) => Promise<FollowUp | void>;

/**
 * The lead is written in the same transaction as the event, and LEAD_SAVED follows at once: a
 * capture answers with the intro screen instead of waiting for a job. A failed write rolls back
 * to the savepoint and becomes LEAD_FAILED, which the capture screen shows.
 */
async function createLead(tx: FlowTx, flow: FlowRow, request: LeadRequest): Promise<FollowUp> {
  await tx.client.query('SAVEPOINT create_lead');
  try {
    const lead = await createOrUpdateLead(tx.client, {
      email: request.email,
      name: request.name,
      source: leadSourceOf(request.source),
      testingMode: request.testingMode,
    });
    await tx.client.query('UPDATE flows SET lead_id = $2 WHERE id = $1', [flow.id, lead.leadId]);
    await tx.client.query('RELEASE SAVEPOINT create_lead');
    return { type: 'LEAD_SAVED', leadId: lead.leadId };
  } catch {
    await tx.client.query('ROLLBACK TO SAVEPOINT create_lead');
    return { type: 'LEAD_FAILED' };
  }
}

/** An effect that is one job of the flow's lead: the machine's request as its payload, beside the flow's id. */
function leadJob<Request extends { leadId: string | null }>(queue: QueueName, name: string) {
  return async (tx: FlowTx, flow: FlowRow, request: Request): Promise<void> => {
    await tx.insertJob({ queue, name, payload: { flowId: flow.id, request }, flowId: flow.id, leadId: request.leadId });
  };
}

const requestGrading = leadJob<GradingRequest>('grading', 'lead-assessment');
const sendHomework = leadJob<HomeworkRequest>('homework', 'send-homework');
/** The results email the capture step promised: an email job that writes it with the report attached. */
const sendResults = leadJob<ResultsEmailRequest>('email', 'results');
/** The deposit's receipt: an email job that writes it from the tracked payment. */
const sendReceipt = leadJob<ReceiptRequest>('email', 'receipt');
/** The reminder to book (core/email/follow-up-*); the team chat hears of it through the event's lead webhook. */
const remindToBook = leadJob<ReminderRequest>('email', 'booking-reminder');
/** The invitation to finish, with its signed resume link. */
const remindToFinish = leadJob<ReminderRequest>('email', 'assessment-reminder');

/**
 * The deposit's checkout is started by a payments job (a Stripe Checkout, or the test payment).
 * `enteredAt` is the flow's version as it enters `payment`: the job acts only while that entry is
 * the flow's current payment attempt. Few attempts, because the visitor is waiting on the screen.
 */
async function startPayment(tx: FlowTx, flow: FlowRow, request: PaymentRequest): Promise<void> {
  const payload = { flowId: flow.id, enteredAt: flow.version, request };
  await tx.insertJob({ queue: 'payments', name: 'start-payment', payload, flowId: flow.id, leadId: request.leadId, maxAttempts: 3 });
}

/**
 * A retake (or testing mode) forgets the visitor's completed assessment: results reached before
 * now are no longer offered when they open the assessment again.
 */
async function clearStoredAssessment(tx: FlowTx, flow: FlowRow): Promise<void> {
  if (!flow.visitor_id) return;
  await tx.client.query('UPDATE visitors SET results_cleared_at = clock_timestamp() WHERE id = $1', [flow.visitor_id]);
}

/** The standalone diagnostic's grading: a grading job of its own kind (the worker stores it for the diagnostics row of this flow). */
async function requestDiagnosticGrading(tx: FlowTx, flow: FlowRow, request: DiagnosticGradingRequest): Promise<void> {
  const payload = { flowId: flow.id, request: { kind: 'diagnostic', ...request } };
  await tx.insertJob({ queue: 'grading', name: 'diagnostic', payload, flowId: flow.id, leadId: flow.lead_id ?? null });
}

async function requestReply(tx: FlowTx, flow: FlowRow, request: MirrorReplyRequest): Promise<void> {
  await tx.insertJob({
    queue: 'mirror',
    name: 'mirror-reply',
    payload: { flowId: flow.id, request },
    flowId: flow.id,
    leadId: flow.lead_id ?? null,
  });
}

/** A follow-up's timer: a timers job applying its event when due (the same durable timers as `after`). */
async function setTimer(tx: FlowTx, flow: FlowRow, request: TimerRequest): Promise<void> {
  await scheduleEvent(tx, flow, { type: request.event }, request.delayMs);
}

/**
 * Each flow machine's effects as the server provides them. Actions left out run in the browser
 * (clearSavedAnswers forgets the tab's own copies) or need no server work: the diagnostic's
 * answerRecorded is already in the snapshot.
 */
const effects: Record<string, Record<string, Effect>> = {
  assessmentFlow: {
    createLead,
    requestGrading,
    startPayment,
    sendHomework,
    sendResults,
    sendReceipt,
    clearStoredAssessment,
    setTimer,
    remindToBook,
    remindToFinish,
  },
  mirror: { requestReply },
  diagnostic: { requestGrading: requestDiagnosticGrading },
};

/**
 * Schedules a delayed event on a flow: a job of the timers queue, held back until it is due. The
 * job names the machine version it was queued under, so a deploy that renames the event meanwhile
 * (a renamed state renames its delays) has it renamed when it comes due (upgradeEvent).
 */
export async function scheduleEvent(
  tx: FlowTx,
  flow: Pick<FlowRow, 'id' | 'machine'>,
  event: { type: string },
  delayMs: number,
): Promise<void> {
  const machineVersion = flowMachineVersions[flow.machine].current;
  const payload = { flowId: flow.id, event, machine: flow.machine, machineVersion };
  await tx.insertJob({ queue: 'timers', name: event.type.slice(0, 80), payload, flowId: flow.id, delayMs });
}

/** Turns the actions a transition returned into outbox rows; returns events to apply next. */
export async function runEffects(tx: FlowTx, flow: FlowRow, actions: readonly ExecutableAction[]): Promise<FollowUp[]> {
  const followUps: FollowUp[] = [];
  for (const action of actions) {
    if (action.type === 'xstate.raise') {
      const { event, delay } = action.params as { event: { type: string }; delay?: number };
      if (delay === undefined) continue;
      await scheduleEvent(tx, flow, event, delay);
      continue;
    }
    const effect = effects[flow.machine]?.[action.type];
    const followUp = effect ? await effect(tx, flow, action.params as never) : undefined;
    if (followUp) followUps.push(followUp);
  }
  return followUps;
}
