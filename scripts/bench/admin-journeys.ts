import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import { completeSurvey, gamingResult, resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { diagnosticScreens } from '#machines/content/index.js';
import { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { flowMachineVersions } from '#machines/flow-versions.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { DiagnosticEvent } from '#machines/protocol/diagnostic.js';
import type { Tier } from '#machines/protocol/common.js';
import { progressOf, type FlowProgress } from '#core/flows/flow-progress.js';
import { steadyAnswers } from '#test/journey.js';

/*
 * The journeys the admin-at-scale seed copies: each one run through the real machine with XState's
 * pure transition(), so its events, their state_after and the final snapshot are what the engine
 * would have stored (core/flows/engine.ts: payload is the event less its type). The seed replaces
 * the placeholders below with each lead's own id and address.
 */

export const LEAD_PLACEHOLDER = '00000000-0000-4000-8000-00000000bead';
export const EMAIL_PLACEHOLDER = 'placeholder@bench.invalid';

type Origin = 'client' | 'server' | 'worker';

/** One template: where a flow of this kind ends, and what it went through. */
export interface Journey {
  name: string;
  machine: 'assessmentFlow' | 'diagnostic';
  /** The outcome the seed stores beside the flow (null: nothing graded). */
  tier: Tier | null;
  rushed: boolean;
  deposit: 'none' | 'paid' | 'refunded';
  state: string;
  snapshot: string;
  machineVersion: number;
  events: Array<{ type: string; payload: string; origin: Origin; state_after: string }>;
  /** What the engine keeps on the flows row once these events are applied. */
  progress: FlowProgress;
}

function run(
  name: string,
  machine: AnyStateMachine,
  machineName: Journey['machine'],
  steps: Array<[Origin, { type: string } & Record<string, unknown>]>,
  outcome: Pick<Journey, 'tier' | 'rushed' | 'deposit'>,
  input: unknown = {},
): Journey {
  let [snapshot] = initialTransition(machine, input);
  const events: Journey['events'] = [];
  const applied: Array<{ type: string; payload: Record<string, unknown>; stateAfter: string }> = [];
  for (const [origin, event] of steps) {
    const [next, actions] = transition(machine, snapshot, event as never);
    if (next === snapshot && actions.length === 0) throw new Error(`${name}: ${event.type} refused in ${statePath(snapshot.value)}`);
    snapshot = next;
    const { type, ...payload } = event;
    events.push({ type, payload: JSON.stringify(payload), origin, state_after: statePath(snapshot.value) });
    applied.push({ type, payload, stateAfter: statePath(snapshot.value) });
  }
  return {
    name,
    machine: machineName,
    ...outcome,
    state: statePath(snapshot.value),
    snapshot: JSON.stringify(machine.getPersistedSnapshot(snapshot)),
    machineVersion: flowMachineVersions[machineName].current,
    events,
    progress: progressOf(machineName, applied),
  };
}

const captured: Array<[Origin, AssessmentFlowEvent]> = [
  ['client', { type: 'CAPTURE_SUBMIT', name: 'Bench Lead', email: EMAIL_PLACEHOLDER }],
  ['server', { type: 'LEAD_SAVED', leadId: LEAD_PLACEHOLDER }],
];
const diagnosed: Array<[Origin, AssessmentFlowEvent]> = [
  ...captured,
  ['client', { type: 'START_DIAGNOSTIC' }],
  ['client', { type: 'DIAGNOSTIC_COMPLETED', answers: steadyAnswers() }],
];
const surveyed: Array<[Origin, AssessmentFlowEvent]> = [...diagnosed, ['client', { type: 'SURVEY_SUBMITTED', answers: completeSurvey }]];
const graded = (tier: Tier): Array<[Origin, AssessmentFlowEvent]> => [...surveyed, ['worker', { type: 'GRADED', result: resultFor(tier) }]];
const depositPaid: Array<[Origin, AssessmentFlowEvent]> = [
  ...graded('book_call'),
  ['client', { type: 'CONTINUE' }],
  ['client', { type: 'PAY_DEPOSIT' }],
  ['worker', { type: 'CHECKOUT_OPENED', url: 'https://checkout.stripe.com/c/pay/cs_bench' }],
  ['server', { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_bench_placeholder' }],
];
const booked: Array<[Origin, AssessmentFlowEvent]> = [
  ...depositPaid,
  ['client', { type: 'BOOK_SESSION' }],
  ['server', { type: 'SESSION_BOOKED', provider: 'calendly', startsAt: '2026-12-01T15:00:00.000Z' }],
];

const none = { tier: null, rushed: false, deposit: 'none' } as const;

/** The assessment-flow journeys, by name. */
function assessmentJourneys(): Journey[] {
  const a = (name: string, steps: Array<[Origin, AssessmentFlowEvent]>, outcome: Pick<Journey, 'tier' | 'rushed' | 'deposit'> = none) =>
    run(name, assessmentFlowMachine, 'assessmentFlow', steps, outcome);
  return [
    a('captured', captured),
    a('in the diagnostic', [...captured, ['client', { type: 'START_DIAGNOSTIC' }]]),
    a('at the survey', diagnosed),
    a('rushed', [...surveyed, ['worker', { type: 'GRADED', result: gamingResult() }]], { tier: null, rushed: true, deposit: 'none' }),
    a('nurture joined', [...graded('nurture'), ['client', { type: 'CONTINUE' }], ['client', { type: 'JOIN_COMMUNITY' }]], {
      ...none,
      tier: 'nurture',
    }),
    a('nurture at results', graded('nurture'), { ...none, tier: 'nurture' }),
    a(
      'homework sent',
      [
        ...graded('homework'),
        ['client', { type: 'CONTINUE' }],
        ['client', { type: 'CHOOSE_FREE_RESOURCES' }],
        ['worker', { type: 'HOMEWORK_SENT' }],
      ],
      { ...none, tier: 'homework' },
    ),
    a(
      'homework paid',
      [
        ...graded('homework'),
        ['client', { type: 'CONTINUE' }],
        ['client', { type: 'PAY_FOR_HOMEWORK' }],
        ['worker', { type: 'CHECKOUT_OPENED', url: 'https://checkout.stripe.com/c/pay/cs_bench' }],
        ['server', { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_bench_placeholder' }],
      ],
      { tier: 'homework', rushed: false, deposit: 'none' },
    ),
    a('homework at results', graded('homework'), { ...none, tier: 'homework' }),
    a('book_call at results', graded('book_call'), { ...none, tier: 'book_call' }),
    a('deposit paid, booked', booked, { tier: 'book_call', rushed: false, deposit: 'paid' }),
    a('deposit paid, reminded', [...depositPaid, ['server', { type: 'BOOKING_REMINDER_DUE' }]], {
      tier: 'book_call',
      rushed: false,
      deposit: 'paid',
    }),
    a('deposit paid, coach cancelled', [...booked, ['server', { type: 'SESSION_CANCELED', provider: 'calendly', canceledBy: 'coach' }]], {
      tier: 'book_call',
      rushed: false,
      deposit: 'paid',
    }),
    a('deposit refunded, still booked', [...booked, ['server', { type: 'DEPOSIT_REFUNDED' }]], {
      tier: 'book_call',
      rushed: false,
      deposit: 'refunded',
    }),
  ];
}

/**
 * A diagnostic child flow answered screen by screen as a visitor would (the notice before the timed
 * screens passed, a vignette's confidence given), to its end or stopped after `moves` events.
 */
function diagnosticJourney(name: string, moves: number): Journey {
  const input = { screens: diagnosticScreens };
  let [snapshot] = initialTransition(diagnosticMachine, input);
  const steps: Array<[Origin, DiagnosticEvent]> = [];
  while (steps.length < moves) {
    const screen = snapshot.context.screens[snapshot.context.index];
    const tries: DiagnosticEvent[] = [
      { type: 'START_TIMED' },
      { type: 'ANSWER_LIKERT', value: 3, responseTime: 6000 },
      { type: 'SELECT_CONFIDENCE', value: 4 },
      { type: 'CONFIRM_RANKING', responseTime: 9000 },
      ...(screen?.type === 'vignette' ? [{ type: 'SELECT_OPTION' as const, optionId: screen.choiceIds[0]!, responseTime: 9000 }] : []),
    ];
    const taken = tries.find((event) => {
      const [next, actions] = transition(diagnosticMachine, snapshot, event);
      return next !== snapshot || actions.length > 0;
    });
    if (!taken) break;
    steps.push(['client', taken]);
    [snapshot] = transition(diagnosticMachine, snapshot, taken);
  }
  return run(name, diagnosticMachine, 'diagnostic', steps, none, input);
}

/** Every template, assessment flows first; the diagnostic ones are the child flows of the assessment's diagnostic step. */
export function benchJourneys(): Journey[] {
  return [
    ...assessmentJourneys(),
    diagnosticJourney('diagnostic finished', Number.POSITIVE_INFINITY),
    diagnosticJourney('diagnostic stopped early', Math.floor(diagnosticScreens.length / 3)),
  ];
}
