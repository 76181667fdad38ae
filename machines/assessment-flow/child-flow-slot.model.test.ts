import { initialTransition, transition, type SnapshotFrom } from 'xstate';
import { getShortestPaths, getStateNodes } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { assessmentFlowClientEventSchema, assessmentFlowEventSchema, type AssessmentFlowEvent } from '../protocol/assessment-flow.js';
import { assessmentFlowEvents, assessmentFlowKey, assessmentFlowOpenings } from '../snapshot-corpus/paths.js';
import { sampleEvents } from './assessment-flow.fixtures.js';
import { assessmentFlowMachine as machine } from './assessment-flow.machine.js';
import { childFlowSlot, childFlowSteps, type ChildFlowStep } from './child-flow-slot.js';

// Model-based: every state the walk reaches, from every opening, is given every event that comes
// from the server or a worker. A flow in the diagnostic or the Mirror must stay there with the same
// child flow slot, so the visitor's screen carries on; entering such a step gives a slot the flow
// never had, so a retake or coming back starts a fresh child flow. The flow is moved as the engine
// moves it (core/flows/engine.ts): pure transitions, the snapshot persisted and restored between
// events, its version bumped by every event taken.

type Snapshot = SnapshotFrom<typeof machine>;

/**
 * The events that reach the flow without the visitor doing anything on the screen, by who sends
 * them. A visitor's own action that the server follows with one of these (the capture's
 * LEAD_SAVED) is still the server's: the browser never sends it. Checked against the protocol
 * below, so a new server event cannot be left out.
 */
const systemEventSenders: Record<string, string> = {
  LEAD_SAVED: 'the server, having written the lead (createLead)',
  LEAD_FAILED: 'the server, failing to write it',
  ADDRESS_CONFIRMED: 'the server, when the link mailed to an unconfirmed address is followed (confirmAddress)',
  GRADED: "the grading worker; also the coach's retry of a failed grading job (admin)",
  CHECKOUT_OPENED: 'the payments worker, with the Stripe Checkout',
  PAYMENT_CONFIRMED: "Stripe's webhook, or the test payment's timer",
  PAYMENT_FAILED: "the payments worker, or Stripe's webhook",
  HOMEWORK_SENT: 'the homework worker',
  HOMEWORK_FAILED: 'the homework worker',
  SESSION_BOOKED: "the scheduling provider's webhook",
  SESSION_CANCELED: "the scheduling provider's webhook",
  DEPOSIT_REFUNDED: "the coach's refund (admin)",
  BOOKING_REMINDER_DUE: 'the timers worker, a day after a deposit (setTimer)',
  ASSESSMENT_REMINDER_DUE: 'the timers worker, a day after the capture (setTimer)',
};

/** The machine's own delays (`after`), as the timers worker delivers them: xstate.after.<delay>.<state>. */
const delayedEventTypes = getStateNodes(machine.root).flatMap((node) => node.ownEvents.filter((type) => type.startsWith('xstate.after.')));

/** Every system event to send: the samples of each type (payloads that lead different ways), else the bare event. */
const systemEvents: AssessmentFlowEvent[] = [...Object.keys(systemEventSenders), ...delayedEventTypes].flatMap((type) => {
  const samples = sampleEvents.filter((event) => event.type === type);
  return samples.length > 0 ? samples : [{ type }];
});

/** The types of the events whose transitions enter a step that runs a child flow (a retake, the Mirror finished, …). */
const enteringTypes = new Set(
  getStateNodes(machine.root)
    .flatMap((node) => [...node.transitions.values()].flat())
    .filter((transition) => transition.target?.some((target) => childFlowSteps.some((step) => target.id === `${machine.id}.${step}`)))
    .map((transition) => transition.eventType),
);

/** A walk over hundreds of states: a second or two alone, several times that while the suite shares the cores. */
const WALK_TIMEOUT = 60_000;

const FLOW_ID = '2a7c9e4b-1d3f-4e5a-8b6c-7d8e9f0a1b2c';

/** A flow as the server stores it: the persisted snapshot and the version every event taken bumps. */
interface StoredFlow {
  version: number;
  snapshot: Snapshot;
}

/** The engine's move: the pure transition; an event that changes nothing and runs nothing is refused. */
function apply(flow: StoredFlow, event: AssessmentFlowEvent): StoredFlow | null {
  const [next, actions] = transition(machine, flow.snapshot, event);
  if (next === flow.snapshot && actions.length === 0) return null;
  return { version: flow.version + 1, snapshot: next };
}

/** The flow as it is stored and read back, as every browser (this tab after a reload, a second tab) reads it. */
function stored(flow: StoredFlow): StoredFlow {
  return { ...flow, snapshot: machine.resolveState(machine.getPersistedSnapshot(flow.snapshot) as never) };
}

/** The step that runs a child flow the flow is in, if any. */
function childStep(snapshot: Snapshot): ChildFlowStep | null {
  return childFlowSteps.find((step) => snapshot.matches(step)) ?? null;
}

/** The child flow slot of the flow's step, if it is in one that runs a child flow. */
function slotsOf(flow: StoredFlow): string[] {
  const step = childStep(flow.snapshot);
  return step ? [slotOf(flow, step)] : [];
}

/**
 * The slot a browser keeps the step's child flow under, from the flow as the server answers it:
 * its id, its version (which the slot must not follow: every event taken bumps it) and its snapshot.
 */
function slotOf(flow: StoredFlow, step: ChildFlowStep): string {
  const parent = { flowId: FLOW_ID, version: flow.version, context: flow.snapshot.context };
  return childFlowSlot(parent, step);
}

/** A state the walk reaches: how, the flow there, and the child flow slots it had on the way. */
interface Reached {
  name: string;
  flow: StoredFlow;
  slots: readonly string[];
}

/**
 * Every state the walk reaches from an opening. Each is replayed from its path's events: the walk
 * keeps one snapshot per key, the last it met, and the key leaves out the visit count, so the
 * walk's own snapshot may count another path's visits. A shortest path is the one to the state
 * before it plus one event, so each is replayed from its predecessor's.
 */
function reachedFlows(input: (typeof assessmentFlowOpenings)[string]): Reached[] {
  const paths = getShortestPaths(machine, { input, events: assessmentFlowEvents, serializeState: assessmentFlowKey });
  const byKey = new Map<string, Reached>();
  for (const path of paths.sort((a, b) => a.steps.length - b.steps.length)) {
    const before = path.steps.at(-2);
    let reached: Reached;
    if (!before) {
      const flow: StoredFlow = { version: 0, snapshot: initialTransition(machine, input)[0] };
      reached = { name: '(opening)', flow, slots: slotsOf(flow) };
    } else {
      const { event } = path.steps.at(-1)!;
      const from = byKey.get(assessmentFlowKey(before.state))!;
      const flow = apply(from.flow, event);
      expect(flow, `${from.name} > ${event.type} is refused`).not.toBeNull();
      const name = from.flow.version === 0 ? event.type : `${from.name} > ${event.type}`;
      reached = { name, flow: flow!, slots: [...from.slots, ...slotsOf(flow!)] };
    }
    expect(reached.flow.snapshot.value).toEqual(path.state.value);
    byKey.set(assessmentFlowKey(path.state), reached);
  }
  // as stored and read back, which is how the server and every browser meet it
  return [...byKey.values()].map((reached) => ({ ...reached, flow: stored(reached.flow) }));
}

const reached = Object.entries(assessmentFlowOpenings).map(([opening, input]) => [opening, reachedFlows(input)] as const);

describe('the child flow of the diagnostic and the Mirror', () => {
  it('the system events are every event the protocol does not take from a browser, and the machine’s delays', () => {
    const clientTypes = assessmentFlowClientEventSchema.options.map((option) => option.shape.type.value as string);
    const otherTypes = assessmentFlowEventSchema.options
      .map((option) => option.shape.type.value as string)
      .filter((type) => !clientTypes.includes(type));
    expect(Object.keys(systemEventSenders).sort()).toEqual(otherTypes.sort());
  });

  it('the walk reaches every state that is not a transient decision, both child-flow steps among them', () => {
    const reachedIds = new Set(reached.flatMap(([, flows]) => flows.flatMap(({ flow }) => flow.snapshot._nodes.map((node) => node.id))));
    const resting = getStateNodes(machine.root).filter((node) => !node.always?.length);
    expect(resting.map((node) => node.id).filter((id) => !reachedIds.has(id))).toEqual([]);
    for (const step of childFlowSteps) expect(reachedIds).toContain(`assessmentFlow.${step}`);
  });

  describe.each(reached)('opened %s', (_, flows) => {
    it(
      'in a step that runs a child flow, every system event leaves the step and its child flow slot as they are',
      () => {
        for (const { name, flow } of flows) {
          const step = childStep(flow.snapshot);
          if (!step) continue;
          for (const event of systemEvents) {
            const taken = apply(flow, event);
            if (!taken) continue;
            const after = stored(taken);
            const where = `${name} > ${event.type}`;
            expect(after.snapshot.value, where).toEqual(flow.snapshot.value);
            expect(slotOf(after, step), where).toBe(slotOf(flow, step));
          }
        }
      },
      WALK_TIMEOUT,
    );

    it(
      "entering a step that runs a child flow, by the visitor's event or the server's, gives a slot the flow never had",
      () => {
        let entries = 0;
        for (const { name, flow, slots } of flows) {
          const before = childStep(flow.snapshot);
          for (const event of [...assessmentFlowEvents(flow.snapshot), ...systemEvents]) {
            if (!enteringTypes.has(event.type)) continue;
            const after = apply(flow, event);
            const step = after && childStep(after.snapshot);
            if (!after || !step || step === before) continue;
            entries += 1;
            expect(slots, `${name} > ${event.type}`).not.toContain(slotOf(after, step));
          }
        }
        expect(entries).toBeGreaterThan(0);
      },
      WALK_TIMEOUT,
    );
  });

  it(
    'is tried where it matters: the reminders, bookings and refunds a running diagnostic or Mirror takes',
    () => {
      const taken: Record<ChildFlowStep, Set<string>> = { diagnostic: new Set(), mirror: new Set() };
      for (const [, flows] of reached) {
        for (const { flow } of flows) {
          const step = childStep(flow.snapshot);
          if (step) for (const event of systemEvents) if (apply(flow, event)) taken[step].add(event.type);
        }
      }
      expect([...taken.diagnostic].sort()).toEqual([
        'ASSESSMENT_REMINDER_DUE',
        'BOOKING_REMINDER_DUE',
        'DEPOSIT_REFUNDED',
        'SESSION_BOOKED',
        'SESSION_CANCELED',
      ]);
      expect([...taken.mirror].sort()).toEqual(['ASSESSMENT_REMINDER_DUE']);
    },
    WALK_TIMEOUT,
  );
});
