import { RESULTS_DELAY_MS } from '#machines/assessment-flow/assessment-flow.machine.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import type { DiagnosticEvent } from '#machines/protocol/diagnostic.js';
import type { MirrorEvent } from '#machines/protocol/mirror.js';
import type { EmailKind, LeadEventName, QueueName, WebhookTarget } from '#machines/protocol/operations.js';

/*
 * The journey and the jobs in the coach's words: state paths, event types and queue/name pairs of
 * the code mapped to what happened. The lead's page shows these and keeps the raw names behind a
 * "Technical details" disclosure. step-names.test.ts checks every state, delay and event of the
 * flow machines has a name here, so a new one cannot ship without it.
 */

/** Every key of T must be named; names of keys T does not (yet) have are allowed. */
type Names<T extends string> = Record<T, string> & Record<string, string>;

const MACHINE_NAMES: Record<FlowMachineName, string> = {
  assessmentFlow: 'Assessment',
  diagnostic: 'Leadership diagnostic',
  mirror: 'Decision Mirror chat',
};

/** Every state of each flow machine (compound states and their children), by dotted path. */
export const STATE_NAMES: Record<FlowMachineName, Record<string, string>> = {
  assessmentFlow: {
    opening: 'Opening the assessment',
    capture: 'Details form',
    'capture.editing': 'Filling in their name and email',
    'capture.saving': 'Saving their details',
    intro: 'Reading the assessment overview',
    mirror: 'Chatting with the Decision Mirror',
    diagnostic: 'Taking the diagnostic',
    survey: 'Answering the qualification survey',
    email_capture: 'Asked for their email',
    'email_capture.editing': 'Entering their email',
    'email_capture.saving': 'Saving their email',
    processing: 'Processing the assessment',
    'processing.grading': 'Grading the assessment',
    gaming_detected: 'Asked to retake (answers looked rushed or patterned)',
    results: 'Viewing their results',
    completed_results: 'Viewing their earlier results',
    yes_flow: 'Offered a strategy session (deposit)',
    maybe_flow: 'Offered homework',
    no_flow: 'Offered the free community',
    'no_flow.offered': 'Offered the free community',
    'no_flow.joined': 'Joined the community',
    payment: 'At the checkout',
    homework_processing: 'Sending homework',
    'homework_processing.sending': 'Sending homework',
    'homework_processing.sent': 'Free resources sent',
    payment_success: 'Payment confirmed',
    'payment_success.confirmed': 'Payment confirmed',
    'payment_success.booking_opened': 'Opened the booking page',
    'payment_success.booked': 'Booked the strategy session',
  },
  diagnostic: {
    advance: 'Moving to the next question',
    interstitial: 'Told the timed questions are next',
    present: 'Showing a question',
    likert: 'Rating a statement',
    vignette: 'In a timed scenario',
    'vignette.choosing': 'Choosing in a timed scenario',
    'vignette.confidence': 'Rating their confidence',
    ranking: 'Ranking priorities',
    grading: 'Grading the diagnostic',
    graded: 'Diagnostic graded',
    done: 'Diagnostic finished',
  },
  mirror: {
    chatting: 'Chatting with the Mirror',
    awaitingReply: "Waiting for the Mirror's reply",
    revealing: "Showing the Mirror's reply",
    complete: 'Mirror chat finished',
  },
};

/** Every event type each flow machine accepts (machines/protocol). */
export const EVENT_NAMES: {
  assessmentFlow: Names<AssessmentFlowEvent['type']>;
  diagnostic: Names<DiagnosticEvent['type']>;
  mirror: Names<MirrorEvent['type']>;
} = {
  assessmentFlow: {
    CAPTURE_SUBMIT: 'Left their details',
    START_DIAGNOSTIC: 'Started the diagnostic',
    MIRROR_COMPLETED: 'Finished the Mirror chat',
    DIAGNOSTIC_COMPLETED: 'Finished the diagnostic',
    SURVEY_SUBMITTED: 'Submitted the survey',
    EMAIL_SUBMIT: 'Gave their email',
    EMAIL_EDITED: 'Edited their email',
    CONTINUE_WITHOUT_SAVING: 'Continued without saving',
    CONTINUE: 'Continued from the results',
    BACK_TO_RESULTS: 'Went back to the results',
    VIEW_RESULTS: 'Viewed their results again',
    RETAKE: 'Chose to retake the assessment',
    PAY_DEPOSIT: 'Chose to pay the deposit',
    PAY_FOR_HOMEWORK: 'Chose paid homework',
    CHOOSE_FREE_RESOURCES: 'Chose the free resources',
    PAYMENT_CANCELED: 'Canceled the payment',
    BOOK_SESSION: 'Opened the booking page',
    SESSION_BOOKED: 'Booked the strategy session',
    SESSION_CANCELED: 'Cancelled the strategy session',
    DEPOSIT_REFUNDED: 'Deposit refunded',
    SET_TESTING_MODE: 'Switched testing mode',
    BOOKING_REMINDER_DUE: 'Reminded to book (deposit paid, no session booked)',
    ASSESSMENT_REMINDER_DUE: 'Invited back to finish the assessment',
    JOIN_COMMUNITY: 'Joined the community',
    LEAD_SAVED: 'Lead saved',
    LEAD_FAILED: 'Saving the lead failed',
    GRADED: 'Assessment graded',
    CHECKOUT_OPENED: 'Checkout opened',
    PAYMENT_CONFIRMED: 'Payment confirmed',
    PAYMENT_FAILED: 'Payment failed',
    HOMEWORK_SENT: 'Homework sent',
    HOMEWORK_FAILED: 'Sending homework failed',
  },
  diagnostic: {
    START_TIMED: 'Started the timed questions',
    ANSWER_LIKERT: 'Rated a statement',
    SELECT_OPTION: 'Chose an option in a scenario',
    SELECT_CONFIDENCE: 'Rated their confidence',
    REORDER_RANKING: 'Reordered the ranking',
    CONFIRM_RANKING: 'Submitted the ranking',
    GRADED: 'Diagnostic graded',
  },
  mirror: {
    SEND: 'Wrote to the Mirror',
    SET_SAVE: 'Chose whether to save the chat',
    REPLY_RECEIVED: 'The Mirror replied',
    REPLY_FAILED: "The Mirror's reply failed (fallback shown)",
  },
};

/** Each named delay of a flow machine (its `after` timers), as what happened when it fired. */
export const DELAY_NAMES: Record<FlowMachineName, Record<string, string>> = {
  assessmentFlow: {},
  diagnostic: { screenTimeout: 'Time ran out on a timed question' },
  mirror: { replyDelay: "Mirror's reply shown" },
};

/**
 * States and delays an earlier version of a machine had, which journeys recorded then still show:
 * until version 4 the 1 s reveal was a state with a timer (decision 0029).
 */
const RETIRED_STATE_NAMES: Record<FlowMachineName, Record<string, string>> = {
  assessmentFlow: { 'processing.revealing': 'Revealing results' },
  diagnostic: {},
  mirror: {},
};
const RETIRED_DELAY_NAMES: Record<FlowMachineName, Record<string, string>> = {
  assessmentFlow: { resultsDelay: `Results shown after ${RESULTS_DELAY_MS / 1000} s` },
  diagnostic: {},
  mirror: {},
};

/** What each email is, as the coach would say it (email_outbox.kind, also the name of its email job). */
const EMAIL_KINDS: Record<EmailKind, string> = {
  results: 'Results',
  deposit_receipt: 'Deposit receipt',
  refund_confirmation: 'Refund confirmation',
  homework: 'Paid homework',
  free_resources: 'Free resources',
  contact_confirmation: 'Contact confirmation',
  contact_notification: 'Contact notification',
  sign_in_notice: 'Sign-in notice',
  assessment_reminder: 'Invitation to finish',
  booking_reminder: 'Reminder to book',
  address_confirmation: 'Address confirmation',
};

/** An email's kind in words (unknown kinds as stored). */
export function emailKindName(kind: string): string {
  return EMAIL_KINDS[kind as EmailKind] ?? kind;
}

const WEBHOOK_TARGETS: Record<WebhookTarget, string> = { automation: 'Automation webhook', team_chat: 'Team-chat message' };
const LEAD_EVENTS: Record<LeadEventName, string> = {
  'lead.captured': 'lead captured',
  'lead.graded': 'lead graded',
  'lead.paid': 'lead paid',
  'lead.regraded': 'lead re-graded',
  'lead.booked': 'session booked',
  'lead.booking_canceled': 'session cancelled',
  'lead.not_booked': 'paid, not booked',
};

/**
 * Jobs by queue and name, as core/flows/effects.ts, core/email/outbox.ts (the email's kind),
 * core/integrations/lead-events.ts (target:event), core/integrations/marketing-sync.ts and the slack
 * processors name them.
 */
export const JOB_NAMES: Record<QueueName, Record<string, string>> = {
  grading: { 'lead-assessment': 'Grading the assessment', diagnostic: 'Grading the diagnostic' },
  homework: { 'send-homework': 'Sending homework' },
  email: {
    ...Object.fromEntries(Object.entries(EMAIL_KINDS).map(([kind, label]) => [kind, `${label} email`])),
    results: 'Results email',
    receipt: 'Deposit receipt',
    'booking-reminder': 'Reminder to book the session',
    'assessment-reminder': 'Invitation to finish the assessment',
    'address-confirmation': 'Address confirmation (unconfirmed attempt)',
  },
  payments: { 'start-payment': 'Starting the payment', 'refund-deposit': 'Refunding the deposit (session cancelled by you)' },
  mirror: { 'mirror-reply': "The Mirror's reply" },
  webhooks: {
    ...Object.fromEntries(
      Object.entries(WEBHOOK_TARGETS).flatMap(([target, label]) =>
        Object.entries(LEAD_EVENTS).map(([event, what]) => [`${target}:${event}`, `${label}: ${what}`]),
      ),
    ),
    // core/integrations/marketing-sync.ts (decision 0048)
    'email_marketing:sync': 'Email-marketing list: lead synced',
  },
  slack: { 'slack-event': 'Team-chat message received', 'close-assessment': 'Closing a team-chat assessment' },
  // a timer job is named by the event it will send (see timerName)
  timers: {},
};

/** 'SOME_NAME', 'some-name' or 'someName' as words, for a name this file does not know yet. */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

const machineOf = (machine: string): FlowMachineName | null => (machine in MACHINE_NAMES ? (machine as FlowMachineName) : null);

/** A flow machine by the name the flows table stores. */
export function machineName(machine: string): string {
  const known = machineOf(machine);
  return known ? MACHINE_NAMES[known] : humanize(machine);
}

/** A state path as recorded (dotted, parallel regions joined by commas). */
export function stateName(machine: string, path: string): string {
  const known = machineOf(machine) ?? 'assessmentFlow';
  const [names, retired] = [STATE_NAMES[known], RETIRED_STATE_NAMES[known]];
  return path
    .split(',')
    .map((part) => names[part] ?? retired[part] ?? humanize(part.split('.').at(-1) ?? part))
    .join(' and ');
}

/** XState's own events: timers (xstate.after.<delay>.<machine id>.<state>), finished or failed actors and states. */
function builtInEventName(machine: FlowMachineName | null, type: string): string | null {
  const after = /^xstate\.after\.([^.]+)\.([^.]+)/.exec(type);
  if (after) {
    const [, delay, machineId] = after as unknown as [string, string, string];
    if (/^\d+$/.test(delay)) return `Waited ${Number(delay) / 1000} s`;
    const owner = machineOf(machineId) ?? machine;
    return (owner && (DELAY_NAMES[owner][delay] ?? RETIRED_DELAY_NAMES[owner][delay])) || `Timer: ${humanize(delay).toLowerCase()}`;
  }
  const done = /^xstate\.(done|error)\.(actor|state)\.(.+)$/.exec(type);
  if (done) {
    const [, outcome, kind, id] = done as unknown as [string, string, string, string];
    const what = kind === 'state' && machine ? stateName(machine, id.split('.').slice(1).join('.') || id) : humanize(id);
    return `${what} ${outcome === 'done' ? 'finished' : 'failed'}`;
  }
  if (type === 'xstate.init') return 'Started';
  return null;
}

/** An event type as applied to a flow of `machine`. */
export function eventName(machine: string, type: string): string {
  const known = machineOf(machine);
  const names: Record<string, string> | undefined = known ? EVENT_NAMES[known] : undefined;
  return names?.[type] ?? builtInEventName(known, type) ?? humanize(type);
}

/** Event names of every flow machine at once, for a timer job (its row does not say which machine). */
const ANY_EVENT_NAMES: Record<string, string> = { ...EVENT_NAMES.mirror, ...EVENT_NAMES.diagnostic, ...EVENT_NAMES.assessmentFlow };

/** A timer job, named by the event it sends when due. */
function timerName(eventType: string): string {
  const what = ANY_EVENT_NAMES[eventType] ?? builtInEventName(null, eventType) ?? humanize(eventType);
  return `Timer: ${what[0]!.toLowerCase()}${what.slice(1)}`;
}

/** A job by its queue and name. */
export function jobName(queue: string, name: string): string {
  if (queue === 'timers') return timerName(name);
  return JOB_NAMES[queue as QueueName]?.[name] ?? `${humanize(queue)}: ${humanize(name).toLowerCase()}`;
}

/** Who applied an event (flow_events.origin). */
export function originName(origin: string): string {
  return { client: 'by the visitor', server: 'by the server', worker: 'by a background job' }[origin] ?? `by ${origin}`;
}
