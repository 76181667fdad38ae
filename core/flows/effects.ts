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
import type { DiagnosticGradingRequest } from '#machines/diagnostic/diagnostic.effects.js';
import type { Effect, EffectParams } from '#machines/effect.js';
import { flowEffects } from '#machines/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import type { MirrorReplyRequest } from '#machines/protocol/mirror.js';
import type { QueueName } from '#machines/protocol/operations.js';
import {
  claimConfirmationEmail,
  dropOpenAttempt,
  holdJob,
  openAttemptOf,
  recordAttempt,
  visitorActsForLead,
  type OpenAttempt,
} from '../leads/lead-attempts.js';
import { createOrUpdateLead, leadSourceOf } from '../leads/lead-service.js';
import type { NewJob } from '../queues/outbox.js';
import { savedReminderSetting } from '../site/reminder-settings.js';
import { clearVisitorResults } from '../visitors.js';
import { bindFlowToLead, type FlowRow } from './flow-store.js';
import type { JobWritingTx } from './job-writing-tx.js';
import { flowMachineVersions } from '#machines/flow-versions.js';

/** What an effect uses of the event's transaction (FlowTx in engine.ts, which runs the effects). */
type EffectTx = JobWritingTx;

/** What transition() hands back for an action: its type and its resolved params. */
interface ExecutableAction {
  type: string;
  params?: unknown;
}

type FollowUp = { type: string; [key: string]: unknown };

/** The server's side of an effect: work in the event's transaction, and perhaps an event to apply next. */
type ServerEffect<Params> = (tx: EffectTx, flow: FlowRow, params: Params) => Promise<FollowUp | void>;

/**
 * A machine's server effects, typed from its declarations in machines/: one for each effect it
 * declares for the server, by the same name and taking its params, and none other (browser effects
 * are filtered out). Key filtering keeps each key linked to its declaration for go-to-definition.
 */
type ServerSide<Declared> = {
  readonly [Name in keyof Declared as Declared[Name] extends Effect<never, 'server'> ? Name : never]: ServerEffect<
    EffectParams<Declared[Name]>
  >;
};

type ServerEffects = { readonly [Machine in FlowMachineName]: ServerSide<(typeof flowEffects)[Machine]> };

/** The flow's open attempt: as read with its locked row when it was, else read now. */
function openAttempt(tx: EffectTx, flow: FlowRow): Promise<OpenAttempt | null> {
  return flow.open_attempt !== undefined ? Promise.resolve(flow.open_attempt) : openAttemptOf(tx.client, flow.id);
}

/**
 * The lead is written in the same transaction as the event, and LEAD_SAVED follows at once: a
 * capture answers with the intro screen instead of waiting for a job. A failed write rolls back
 * to the savepoint and becomes LEAD_FAILED, which the capture screen shows. A known address this
 * visitor has not proven leaves the lead untouched and the flow unbound to it: the flow becomes
 * an unconfirmed attempt beside the lead (decision 0044).
 */
async function createLead(tx: EffectTx, flow: FlowRow, request: LeadRequest): Promise<FollowUp> {
  await tx.client.query('SAVEPOINT create_lead');
  try {
    const lead = await createOrUpdateLead(
      tx.client,
      { email: request.email, name: request.name, source: leadSourceOf(request.source), testingMode: request.testingMode },
      (leadId) => visitorActsForLead(tx.client, flow.visitor_id ?? null, leadId),
    );
    if (lead.trusted) {
      await dropOpenAttempt(tx.client, flow.id);
      await bindFlowToLead(tx.client, flow.id, lead.leadId);
    } else {
      await recordAttempt(tx.client, { leadId: lead.leadId, flowId: flow.id, name: request.name, email: request.email });
    }
    await tx.client.query('RELEASE SAVEPOINT create_lead');
    return { type: 'LEAD_SAVED', leadId: lead.leadId, ...(lead.trusted ? {} : { unconfirmed: true }) };
  } catch {
    await tx.client.query('ROLLBACK TO SAVEPOINT create_lead');
    return { type: 'LEAD_FAILED' };
  }
}

/**
 * An email an unconfirmed attempt asked for is kept on the attempt, to be sent once the address
 * is confirmed; instead the address gets the attempt's one confirmation email ("Was this you?").
 */
async function holdForConfirmation(tx: EffectTx, flow: FlowRow, attempt: OpenAttempt, job: NewJob): Promise<void> {
  await holdJob(tx.client, attempt.id, job);
  if (await claimConfirmationEmail(tx.client, attempt.id)) {
    await tx.insertJob({
      queue: 'email',
      name: 'address-confirmation',
      payload: { attemptId: attempt.id },
      flowId: flow.id,
      leadId: attempt.leadId,
    });
  }
}

/**
 * An effect that is one job of the flow's lead: the machine's request as its payload, beside the
 * flow's id. For an unconfirmed attempt the email is held (holdForConfirmation), or, for a
 * reminder, not sent at all.
 */
function leadJob<Request extends { leadId: string | null }>(queue: QueueName, name: string, onAttempt: 'hold' | 'drop') {
  return async (tx: EffectTx, flow: FlowRow, request: Request): Promise<void> => {
    const job: NewJob = { queue, name, payload: { flowId: flow.id, request }, flowId: flow.id, leadId: request.leadId };
    const attempt = await openAttempt(tx, flow);
    if (!attempt) await tx.insertJob(job);
    else if (onAttempt === 'hold') await holdForConfirmation(tx, flow, attempt, job);
  };
}

/**
 * The grading job. An unconfirmed attempt's is graded all the same (the visitor sees what they
 * answered) but names no lead: the worker keeps the result on the attempt (workers/processors/grading.ts).
 */
async function requestGrading(tx: EffectTx, flow: FlowRow, request: GradingRequest): Promise<void> {
  const attempt = await openAttempt(tx, flow);
  if (!attempt) {
    await tx.insertJob({
      queue: 'grading',
      name: 'lead-assessment',
      payload: { flowId: flow.id, request },
      flowId: flow.id,
      leadId: request.leadId,
    });
    return;
  }
  const payload = { flowId: flow.id, request: { ...request, leadId: null }, attemptId: attempt.id };
  await tx.insertJob({ queue: 'grading', name: 'lead-assessment', payload, flowId: flow.id, leadId: null });
}

/**
 * The free resources or paid homework. An unconfirmed attempt's are held for the confirmed
 * address and the flow goes on as sent: the screen's "check your email" is where the
 * confirmation link is.
 */
async function sendHomework(tx: EffectTx, flow: FlowRow, request: HomeworkRequest): Promise<FollowUp | void> {
  const job: NewJob = {
    queue: 'homework',
    name: 'send-homework',
    payload: { flowId: flow.id, request },
    flowId: flow.id,
    leadId: request.leadId,
  };
  const attempt = await openAttempt(tx, flow);
  if (!attempt) return void (await tx.insertJob(job));
  await holdForConfirmation(tx, flow, attempt, job);
  return { type: 'HOMEWORK_SENT' };
}

/** The results email the capture step promised: an email job that writes it with a link to the report. */
const sendResults = leadJob<ResultsEmailRequest>('email', 'results', 'hold');
/** The deposit's receipt: an email job that writes it from the tracked payment. */
const sendReceipt = leadJob<ReceiptRequest>('email', 'receipt', 'hold');
/** The reminder to book (core/email/follow-up-*); the team chat hears of it through the event's lead webhook. */
const remindToBook = leadJob<ReminderRequest>('email', 'booking-reminder', 'drop');
/** The invitation to finish, with its signed resume link. */
const remindToFinish = leadJob<ReminderRequest>('email', 'assessment-reminder', 'drop');

/**
 * The deposit's checkout is started by a payments job (a Stripe Checkout, or the test payment).
 * `enteredAt` is the flow's version as it enters `payment`: the job acts only while that entry is
 * the flow's current payment attempt. Few attempts, because the visitor is waiting on the screen.
 */
async function startPayment(tx: EffectTx, flow: FlowRow, request: PaymentRequest): Promise<FollowUp | void> {
  // no checkout for an unconfirmed attempt: a stranger's payment must not become the lead's (decision 0044)
  if (await openAttempt(tx, flow)) return { type: 'PAYMENT_FAILED', reason: 'address_unconfirmed' };
  const payload = { flowId: flow.id, enteredAt: flow.version, request };
  await tx.insertJob({ queue: 'payments', name: 'start-payment', payload, flowId: flow.id, leadId: request.leadId, maxAttempts: 3 });
}

/**
 * A retake (or testing mode) forgets the visitor's completed assessment: results reached before
 * now are no longer offered when they open the assessment again.
 */
async function clearStoredAssessment(tx: EffectTx, flow: FlowRow): Promise<void> {
  if (!flow.visitor_id) return;
  await clearVisitorResults(tx.client, flow.visitor_id);
}

/** The standalone diagnostic's grading: a grading job of its own kind (the worker stores it for the diagnostics row of this flow). */
async function requestDiagnosticGrading(tx: EffectTx, flow: FlowRow, request: DiagnosticGradingRequest): Promise<void> {
  const payload = { flowId: flow.id, request: { kind: 'diagnostic', ...request } };
  await tx.insertJob({ queue: 'grading', name: 'diagnostic', payload, flowId: flow.id, leadId: flow.lead_id ?? null });
}

async function requestReply(tx: EffectTx, flow: FlowRow, request: MirrorReplyRequest): Promise<void> {
  await tx.insertJob({
    queue: 'mirror',
    name: 'mirror-reply',
    payload: { flowId: flow.id, request },
    flowId: flow.id,
    leadId: flow.lead_id ?? null,
  });
}

/** The reminder each follow-up timer is for. */
const TIMER_REMINDERS = { BOOKING_REMINDER_DUE: 'booking_reminder', ASSESSMENT_REMINDER_DUE: 'assessment_reminder' } as const;

/**
 * A follow-up's timer: a timers job applying its event when due (the same durable timers as
 * `after`). The coach's reminder settings are read now, as it is set (decision 0049): a reminder
 * turned off sets none, and a saved delay replaces the one the flow was started with; a timer
 * already set keeps its due time.
 */
async function setTimer(tx: EffectTx, flow: FlowRow, request: TimerRequest): Promise<void> {
  const setting = await savedReminderSetting(tx.client, TIMER_REMINDERS[request.event]);
  if (setting && !setting.enabled) return;
  const delayMs = setting ? Math.max(1, Math.round(setting.delayHours * 3_600_000)) : request.delayMs;
  await scheduleEvent(tx, flow, { type: request.event }, delayMs);
}

/**
 * Each flow machine's effects as the server performs them, checked against what the machines
 * declare (machines/index.ts, flowEffects): a server effect missing here, one misnamed on either
 * side, or one taking other params fails the typecheck. The browser's own effects have no entry.
 */
const effects = {
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
} satisfies ServerEffects;

/**
 * Schedules a delayed event on a flow: a job of the timers queue, held back until it is due. The
 * job names the machine version it was queued under, so a deploy that renames the event meanwhile
 * (a renamed state renames its delays) has it renamed when it comes due (upgradeEvent).
 */
export async function scheduleEvent(
  tx: EffectTx,
  flow: Pick<FlowRow, 'id' | 'machine'>,
  event: { type: string },
  delayMs: number,
): Promise<void> {
  const machineVersion = flowMachineVersions[flow.machine].current;
  const payload = { flowId: flow.id, event, machine: flow.machine, machineVersion };
  await tx.insertJob({ queue: 'timers', name: event.type.slice(0, 80), payload, flowId: flow.id, delayMs });
}

/**
 * A delayed raise (a machine's `after`) is a timer job (decision 0014); an immediate one was
 * already taken within the transition.
 */
async function scheduleRaised(tx: EffectTx, flow: FlowRow, raised: { event: { type: string }; delay?: number }): Promise<void> {
  if (raised.delay !== undefined) await scheduleEvent(tx, flow, raised.event, raised.delay);
}

/**
 * XState's own actions that transition() hands back for these machines (assign and enqueueActions
 * are resolved within it). A cancelled delay needs nothing: its timer job's event is applied only
 * if the flow still takes it. Others (sendTo, emit, log, spawning) have no server side.
 */
const builtIns: Readonly<Record<string, ServerEffect<never> | null>> = {
  'xstate.raise': scheduleRaised,
  'xstate.cancel': null,
};

function own<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The server's side of an action a flow machine named: its effect, or null when the server has
 * nothing to do (a browser effect, a cancelled delay). An action it does not know throws, so the
 * event's transaction rolls back instead of the effect being lost.
 */
export function serverEffectOf(machine: FlowMachineName, type: string): ServerEffect<never> | null {
  const effect = own<ServerEffect<never>>(effects[machine], type) ?? own(builtIns, type);
  if (effect !== undefined) return effect;
  if (own<Effect<never>>(flowEffects[machine], type)?.host === 'browser') return null;
  throw new Error(`The ${machine} machine named the action ${type}, which has no server side and is not declared a browser effect`);
}

/** Turns the actions a transition returned into outbox rows; returns events to apply next. */
export async function runEffects(tx: EffectTx, flow: FlowRow, actions: readonly ExecutableAction[]): Promise<FollowUp[]> {
  const followUps: FollowUp[] = [];
  for (const action of actions) {
    const effect = serverEffectOf(flow.machine, action.type);
    const followUp = effect && (await effect(tx, flow, action.params as never));
    if (followUp) followUps.push(followUp);
    // an effect with a follow-up (a capture) may have opened or dropped the attempt: read it afresh after
    if (followUp) flow = { ...flow, open_attempt: undefined };
  }
  return followUps;
}
