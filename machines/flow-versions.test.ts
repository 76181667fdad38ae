import { createActor, createMachine, initialTransition, transition, type SnapshotFrom } from 'xstate';
import { describe, expect, it } from 'vitest';
import { gamingResult, LEAD_ID, sampleAnswers, completeSurvey } from './assessment-flow/assessment-flow.fixtures.js';
import { assessmentFlowMachine } from './assessment-flow/assessment-flow.machine.js';
import { childFlowSlot } from './assessment-flow/child-flow-slot.js';
import {
  canUpgrade,
  downgradeSnapshot,
  flowMachineVersions,
  upgradeEvent,
  upgradeSnapshot,
  UnsupportedMachineVersionError,
  writeVersion,
  type MachineVersioning,
  type StoredSnapshot,
} from './flow-versions.js';
import { flowMachines } from './index.js';

// Version 1 of a small machine, and version 2 with the state `waiting` renamed to `queued` and a
// new context field: the kind of change a deploy makes while flows are in progress.
const v1 = createMachine({
  id: 'example',
  context: { count: 0 },
  initial: 'waiting',
  states: { waiting: { on: { GO: 'done' } }, done: { type: 'final' } },
});
const v2 = createMachine({
  id: 'example',
  context: { count: 0, note: '' },
  initial: 'queued',
  states: { queued: { on: { GO: 'done' } }, done: { type: 'final' } },
});
const versioning: MachineVersioning = {
  current: 2,
  migrations: {
    1: (snapshot) => ({
      ...snapshot,
      value: snapshot.value === 'waiting' ? 'queued' : snapshot.value,
      context: { ...(snapshot.context as object), note: '' },
    }),
  },
};

/** The stored flow's own version (flows.version), which only the assessment flow's step to version 5 reads. */
const flow = { version: 7 };

describe('versioned flow machines', () => {
  it('records a version for every flow machine the server runs', () => {
    expect(Object.keys(flowMachineVersions).sort()).toEqual(Object.keys(flowMachines).sort());
    for (const { current, migrations } of Object.values(flowMachineVersions)) {
      expect(current).toBeGreaterThanOrEqual(1);
      // every version below the current one has its step up
      for (let step = 1; step < current; step++) expect(migrations[step]).toBeTypeOf('function');
    }
  });

  it('moves a snapshot stored by the old machine onto the renamed state, and it still reaches its end', () => {
    const old = createActor(v1).start();
    const stored = old.getPersistedSnapshot() as Record<string, unknown>;
    expect(stored.value).toBe('waiting');
    // the new machine cannot restore the old snapshot as it is (the engine restores with resolveState)
    expect(() => v2.resolveState(stored as never)).toThrow("State 'waiting' does not exist on 'example'");

    const upgraded = upgradeSnapshot('example', versioning, 1, stored, flow);
    expect(v2.resolveState(upgraded as never).value).toBe('queued');
    const actor = createActor(v2, { snapshot: upgraded as never }).start();
    expect(actor.getSnapshot().value).toBe('queued');
    expect(actor.getSnapshot().context).toEqual({ count: 0, note: '' });
    actor.send({ type: 'GO' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('leaves a current snapshot as it is', () => {
    const snapshot = { value: 'queued', context: { count: 1, note: 'x' } };
    expect(upgradeSnapshot('example', versioning, 2, snapshot, flow)).toBe(snapshot);
  });

  it('refuses a newer version, version 0 and a version with a missing step, naming them', () => {
    expect(canUpgrade(versioning, 3)).toBe(false);
    expect(canUpgrade(versioning, 0)).toBe(false);
    expect(canUpgrade({ current: 3, migrations: { 2: (s) => s } }, 1)).toBe(false);
    expect(canUpgrade({ current: 3, migrations: { 1: (s) => s, 2: (s) => s } }, 1)).toBe(true);
    expect(() => upgradeSnapshot('example', versioning, 3, {}, flow)).toThrow(UnsupportedMachineVersionError);
    expect(() => upgradeSnapshot('example', { current: 3, migrations: { 2: (s) => s } }, 1, {}, flow)).toThrow(
      'A stored example flow was written by machine version 1, which this build cannot run or migrate (it runs version 3 and has no migration from 1).',
    );
  });

  describe('writing at the version of an older process still live (decision 0057)', () => {
    // the example's step 1 -> 2 made reversible: `queued` back to `waiting`, the note dropped
    const reversible: MachineVersioning = {
      ...versioning,
      downMigrations: {
        1: (snapshot) => {
          const { note: _note, ...context } = snapshot.context as { note: string };
          return { ...snapshot, value: snapshot.value === 'queued' ? 'waiting' : snapshot.value, context };
        },
      },
    };

    it('writes the oldest live version when every step down to it is reversible, else its own', () => {
      expect(writeVersion(reversible, 1)).toBe(1);
      expect(writeVersion(reversible, 2)).toBe(2);
      // a newer process than this one, or nonsense, leaves this build's own version
      expect(writeVersion(reversible, 3)).toBe(2);
      expect(writeVersion(reversible, 0)).toBe(2);
      // irreversible: no down migration, or a step that renames queued events
      expect(writeVersion(versioning, 1)).toBe(2);
      expect(writeVersion({ ...reversible, eventMigrations: { 1: (event) => event } }, 1)).toBe(2);
    });

    it('a snapshot written down runs on the old machine and moves up again to the same snapshot', () => {
      const started = createActor(v2).start().getPersistedSnapshot() as StoredSnapshot;
      const down = downgradeSnapshot('example', reversible, 1, started);
      expect(down).toMatchObject({ value: 'waiting', context: { count: 0 } });
      const old = createActor(v1, { snapshot: v1.resolveState(down as never) }).start();
      old.send({ type: 'GO' });
      expect(old.getSnapshot().status).toBe('done');
      expect(upgradeSnapshot('example', reversible, 1, down, flow)).toEqual(started);
      expect(() => downgradeSnapshot('example', versioning, 1, started)).toThrow(UnsupportedMachineVersionError);
    });
  });

  it('renames a delayed event queued under the old state name, so the flow waiting in the renamed state still moves on', () => {
    // version 1 waits 5 s in `waiting`; version 2 calls the state `queued`, so its delay's event is named after that
    const timed1 = createMachine({
      id: 'timed',
      initial: 'waiting',
      states: { waiting: { after: { 5000: 'done' } }, done: { type: 'final' } },
    });
    const timed2 = createMachine({
      id: 'timed',
      initial: 'queued',
      states: { queued: { after: { 5000: 'done' } }, done: { type: 'final' } },
    });
    const rename = (name: string) => name.replace(/^xstate\.after\.(\w+)\.timed\.waiting$/, 'xstate.after.$1.timed.queued');
    const timedVersioning: MachineVersioning = {
      current: 2,
      migrations: { 1: (snapshot) => ({ ...snapshot, value: snapshot.value === 'waiting' ? 'queued' : snapshot.value }) },
      eventMigrations: { 1: (event) => ({ ...event, type: rename(event.type) }) },
    };
    const stored = createActor(timed1).start().getPersistedSnapshot() as Record<string, unknown>;
    // the timer job queued under version 1
    const queued = { type: 'xstate.after.5000.timed.waiting' };
    const restored = timed2.resolveState(upgradeSnapshot('timed', timedVersioning, 1, stored, flow) as never);
    // as queued, the renamed machine ignores it: the flow would wait forever
    expect(transition(timed2, restored, queued)[0].value).toBe('queued');
    const upgraded = upgradeEvent(timedVersioning, 1, queued);
    expect(upgraded).toEqual({ type: 'xstate.after.5000.timed.queued' });
    expect(transition(timed2, restored, upgraded)[0].status).toBe('done');
    // an event queued under the current version is left as it is
    expect(upgradeEvent(timedVersioning, 2, queued)).toBe(queued);
  });

  it('moves an assessment flow of version 1 at the opened booking page onto booking_opened, its path from booked to booking', () => {
    const toVersion2 = flowMachineVersions.assessmentFlow.migrations[1]!;
    const v1 = {
      status: 'active',
      value: { payment_success: 'booked' },
      context: { completedPath: { kind: 'deposit_paid', booked: true }, notice: null },
    };
    expect(toVersion2(v1, flow)).toEqual({
      status: 'active',
      value: { payment_success: 'booking_opened' },
      context: { completedPath: { kind: 'deposit_paid', booking: 'opened' }, notice: null },
    });
    // a deposit not yet looked at, elsewhere in the flow: only its path changes shape
    const unopened = { value: 'completed_results', context: { completedPath: { kind: 'deposit_paid', booked: false } } };
    expect(toVersion2(unopened, flow)).toEqual({
      value: 'completed_results',
      context: { completedPath: { kind: 'deposit_paid', booking: 'none' } },
    });
    // other paths and states are left as they are, and so is a snapshot already in the new shape
    const joined = { value: { no_flow: 'joined' }, context: { completedPath: { kind: 'community_joined' } } };
    expect(toVersion2(joined, flow)).toBe(joined);
    const booked = { value: { payment_success: 'booked' }, context: { completedPath: { kind: 'deposit_paid', booking: 'booked' } } };
    expect(toVersion2(booked, flow)).toBe(booked);
  });

  it('gives an assessment flow of version 2 the follow-ups, not reminded and waiting the default day', () => {
    const v2 = { value: 'survey', context: { completedPath: null, notice: null } };
    expect(upgradeSnapshot('assessmentFlow', flowMachineVersions.assessmentFlow, 2, v2, flow)).toEqual({
      value: 'survey',
      context: {
        completedPath: null,
        notice: null,
        followUps: { bookingReminderMs: 86_400_000, assessmentReminderMs: 86_400_000, remindedToBook: false, remindedToFinish: false },
        // and, moved on up to version 5, its visits counted from its version
        childFlowVisit: 7,
      },
    });
    const current = { value: 'survey', context: { followUps: { remindedToFinish: true } } };
    expect(flowMachineVersions.assessmentFlow.migrations[2]!(current, flow)).toBe(current);
  });

  it('moves an assessment flow of version 3 caught in the reveal onto its results, which the machine runs on from', () => {
    const toVersion4 = flowMachineVersions.assessmentFlow.migrations[3]!;
    const revealing = { status: 'active', value: { processing: 'revealing' }, context: { notice: null } };
    expect(toVersion4(revealing, flow)).toEqual({ status: 'active', value: 'results', context: { notice: null } });
    // still grading, or anywhere else, it is left as it is
    const grading = { value: { processing: 'grading' }, context: {} };
    expect(toVersion4(grading, flow)).toBe(grading);
    const survey = { value: 'survey', context: {} };
    expect(toVersion4(survey, flow)).toBe(survey);
  });

  describe('an assessment flow of version 4 counts its child-flow visits on from its own version', () => {
    const toVersion5 = flowMachineVersions.assessmentFlow.migrations[4]!;
    const FLOW_ID = '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b';
    type Snapshot = SnapshotFrom<typeof assessmentFlowMachine>;

    /** A returning lead's flow at the diagnostic, stored as version 4 stored it (no childFlowVisit). */
    function storedInDiagnostic() {
      const [snapshot] = initialTransition(assessmentFlowMachine, {
        knownSession: { leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'direct', leadToken: null },
      });
      expect(snapshot.value).toBe('diagnostic');
      const persisted: StoredSnapshot = assessmentFlowMachine.getPersistedSnapshot(snapshot);
      const { childFlowVisit: _, ...context } = persisted.context as Record<string, unknown>;
      return { ...persisted, context };
    }
    const slotOf = (snapshot: Snapshot) => childFlowSlot({ flowId: FLOW_ID, context: snapshot.context }, 'diagnostic');

    it('caught in the diagnostic, it keeps the slot its browser keyed by that version, through a reminder; a retake gets a slot no such browser wrote', () => {
      // version 4's browser kept the diagnostic under `child:<flow>:diagnostic:<the parent's version>`
      const keyedByVersion4 = `child:${FLOW_ID}:diagnostic:5`;
      let snapshot: Snapshot = assessmentFlowMachine.resolveState(toVersion5(storedInDiagnostic(), { version: 5 }) as never);
      expect(slotOf(snapshot)).toBe(keyedByVersion4);

      [snapshot] = transition(assessmentFlowMachine, snapshot, { type: 'ASSESSMENT_REMINDER_DUE' });
      expect(snapshot.context.followUps.remindedToFinish).toBe(true);
      expect(slotOf(snapshot)).toBe(keyedByVersion4);

      for (const event of [
        { type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers },
        { type: 'SURVEY_SUBMITTED', answers: completeSurvey },
        { type: 'GRADED', result: gamingResult() },
        { type: 'RETAKE' },
      ] as const) {
        [snapshot] = transition(assessmentFlowMachine, snapshot, event);
      }
      expect(snapshot.value).toBe('diagnostic');
      // past 5, and past every version the flow had before the deploy, which are all a browser keyed by
      expect(slotOf(snapshot)).toBe(`child:${FLOW_ID}:diagnostic:6`);
    });

    it('elsewhere it counts from its version too; a snapshot already counting is left as it is', () => {
      const atSurvey = { value: 'survey', context: { notice: null } };
      expect(toVersion5(atSurvey, { version: 9 })).toEqual({ value: 'survey', context: { notice: null, childFlowVisit: 9 } });
      const counting = { value: 'survey', context: { childFlowVisit: 2 } };
      expect(toVersion5(counting, { version: 9 })).toBe(counting);
    });
  });
});
