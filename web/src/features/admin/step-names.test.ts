import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { flowMachines } from '#machines/index.js';
import { flowMachineNameSchema, type FlowMachineName } from '#machines/protocol/api.js';
import { assessmentFlowEventSchema } from '#machines/protocol/assessment-flow.js';
import { diagnosticEventSchema } from '#machines/protocol/diagnostic.js';
import { mirrorEventSchema } from '#machines/protocol/mirror.js';
import { QUEUE_NAMES } from '#core/queues/names.js';
import { DELAY_NAMES, eventName, EVENT_NAMES, humanize, JOB_NAMES, jobName, machineName, STATE_NAMES, stateName } from './step-names.js';

interface Node {
  path: string[];
  states: Record<string, Node>;
  after: Array<{ eventType: string }>;
}

/** Every state node of a machine below its root, from the machine's own definition. */
function stateNodes(machine: AnyStateMachine): Node[] {
  const walk = (node: Node): Node[] => [node, ...Object.values(node.states).flatMap(walk)];
  return walk(machine.root).slice(1);
}

const machines = Object.entries(flowMachines) as Array<[FlowMachineName, AnyStateMachine]>;

/** The event types each machine's protocol schema accepts. */
const protocolEvents: Record<FlowMachineName, string[]> = {
  assessmentFlow: assessmentFlowEventSchema.options.map((o) => o.shape.type.value),
  diagnostic: diagnosticEventSchema.options.map((o) => o.shape.type.value),
  mirror: mirrorEventSchema.options.map((o) => o.shape.type.value),
};

describe('every state, event and timer of the flow machines has a name', () => {
  it('covers the flow machines the server runs', () => {
    expect(Object.keys(flowMachines).sort()).toEqual([...flowMachineNameSchema.options].sort());
    for (const name of flowMachineNameSchema.options) expect(machineName(name)).not.toBe(humanize(name));
  });

  it.each(machines)('%s: every state, compound or leaf, by its dotted path', (name, machine) => {
    const paths = stateNodes(machine).map((node) => node.path.join('.'));
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.filter((p) => !STATE_NAMES[name][p])).toEqual([]);
    // and nothing named that the machine does not have
    expect(Object.keys(STATE_NAMES[name]).filter((p) => !paths.includes(p))).toEqual([]);
  });

  it.each(machines)('%s: every event of its protocol schema', (name) => {
    const names: Record<string, string> = EVENT_NAMES[name];
    expect(protocolEvents[name].filter((type) => !names[type])).toEqual([]);
  });

  it.each(machines)('%s: every event the machine handles, its timers included, gets a written name', (name, machine) => {
    const handled = [...(machine.events as string[])];
    const names: Record<string, string> = EVENT_NAMES[name];
    const [timers, own] = [handled.filter((type) => type.startsWith('xstate.')), handled.filter((type) => !type.startsWith('xstate.'))];
    expect(own.filter((type) => !names[type])).toEqual([]);
    for (const type of timers) expect(Object.values(DELAY_NAMES[name])).toContain(eventName(name, type));
    // each `after` timer reads as its delay's name, not the fallback
    const delays = Object.keys(machine.implementations.delays);
    expect(delays.filter((delay) => !DELAY_NAMES[name][delay])).toEqual([]);
    for (const node of stateNodes(machine)) {
      for (const { eventType } of node.after) {
        expect(Object.values(DELAY_NAMES[name])).toContain(eventName(name, eventType));
        expect(jobName('timers', eventType)).toMatch(/^Timer: [a-z]/);
      }
    }
  });
});

describe('names read as a coach would say them', () => {
  it('states, events and the built-in XState events', () => {
    // a state and a timer of version 3, in journeys recorded then
    expect(stateName('assessmentFlow', 'processing.revealing')).toBe('Revealing results');
    expect(stateName('assessmentFlow', 'payment_success.booked')).toBe('Booked the strategy session');
    expect(stateName('assessmentFlow', 'payment_success.booking_opened')).toBe('Opened the booking page');
    expect(stateName('diagnostic', 'grading')).toBe('Grading the diagnostic');
    expect(eventName('assessmentFlow', 'CAPTURE_SUBMIT')).toBe('Left their details');
    expect(eventName('assessmentFlow', 'GRADED')).not.toBe(eventName('diagnostic', 'GRADED'));
    expect(eventName('assessmentFlow', 'xstate.after.resultsDelay.assessmentFlow.processing.revealing')).toBe('Results shown after 1 s');
    expect(eventName('assessmentFlow', 'xstate.after.2500.assessmentFlow.payment')).toBe('Waited 2.5 s');
    expect(eventName('diagnostic', 'xstate.done.actor.gradeAnswers')).toBe('Grade answers finished');
    expect(eventName('assessmentFlow', 'xstate.done.state.assessmentFlow.processing')).toBe('Processing the assessment finished');
    expect(eventName('mirror', 'xstate.after.slowDelay.mirror.revealing')).toBe('Timer: slow delay');
  });

  it('unknown names fall back to words, never to nothing', () => {
    expect(stateName('assessmentFlow', 'new_state.waiting_room')).toBe('Waiting room');
    expect(stateName('somethingElse', 'a,b')).toBe('A and B');
    expect(eventName('someMachine', 'SOME_NEW_EVENT')).toBe('Some new event');
    expect(jobName('reports', 'build-pdf')).toBe('Reports: build pdf');
  });

  it('jobs by queue and name', () => {
    expect(jobName('email', 'results')).toBe('Results email');
    expect(jobName('email', 'receipt')).toBe('Deposit receipt');
    expect(jobName('email', 'homework')).toBe('Paid homework email');
    expect(jobName('email', 'refund_confirmation')).toBe('Refund confirmation email');
    expect(jobName('webhooks', 'automation:lead.graded')).toBe('Automation webhook: lead graded');
    expect(jobName('webhooks', 'team_chat:lead.graded')).toBe('Team-chat message: lead graded');
    expect(jobName('webhooks', 'email_marketing:sync')).toBe('Email-marketing list: lead synced');
    expect(jobName('timers', 'PAYMENT_CONFIRMED')).toBe('Timer: payment confirmed');
    expect(jobName('timers', 'xstate.after.resultsDelay.assessmentFlow.processing.revealing')).toBe('Timer: results shown after 1 s');
  });
});

describe('every job the code enqueues has a name', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  /** Source files (tests aside) of the core, the server and the workers. */
  const sources = ['core', 'server', 'workers'].flatMap((dir) =>
    (readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => readFileSync(path.join(root, dir, file), 'utf8')),
  );
  /** Every `queue: 'x', name: 'y'` written literally where a job is inserted, and every effect's `leadJob<…>('x', 'y')`. */
  const literal = [
    ...sources.join('\n').matchAll(/queue: '([a-z]+)',\s*name: '([^']+)'/g),
    ...sources.join('\n').matchAll(/leadJob<\w+>\('([a-z]+)', '([^']+)'[,)]/g),
  ].map(([, queue, name]) => [queue!, name!] as const);

  it('finds the jobs the effects and processors insert', () => {
    const found = literal.map(([queue, name]) => `${queue}/${name}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'email/results',
        'email/receipt',
        'email/booking-reminder',
        'email/assessment-reminder',
        'grading/lead-assessment',
        'payments/start-payment',
        'payments/refund-deposit',
      ]),
    );
  });

  it('names each of them, and every queue', () => {
    expect(literal.filter(([queue, name]) => !JOB_NAMES[queue as keyof typeof JOB_NAMES]?.[name])).toEqual([]);
    expect(Object.keys(JOB_NAMES).sort()).toEqual([...QUEUE_NAMES].sort());
  });
});
