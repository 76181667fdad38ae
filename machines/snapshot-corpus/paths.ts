import { assign, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type SnapshotFrom, type StateValue } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { LEAD_ID, resultFor, sampleAnswers, sampleEvents, STANDALONE_DIAGNOSTIC_ID } from '../assessment-flow/assessment-flow.fixtures.js';
import { resultTier } from '../assessment-flow/assessment-flow.guards.js';
import { assessmentFlowMachine } from '../assessment-flow/assessment-flow.machine.js';
import { diagnosticScreens } from '../content/index.js';
import { diagnosticMachine } from '../diagnostic/diagnostic.machine.js';
import { flowMachineVersions, type StoredSnapshot } from '../flow-versions.js';
import { mirrorMachine } from '../mirror/mirror.machine.js';
import type { AssessmentFlowEvent, AssessmentFlowInput } from '../protocol/assessment-flow.js';
import type { FlowMachineName } from '../protocol/api.js';
import type { DiagnosticEvent } from '../protocol/diagnostic.js';
import type { MirrorEvent } from '../protocol/mirror.js';

// The model-based walks of the flow machines: the events worth trying in a state and the key that
// tells two states apart. The model tests walk them to check every path replays; the stored-snapshot
// corpus (scripts/snapshot-corpus.ts) keeps one snapshot of every state they reach, so a change to a
// machine is tested against the snapshots flows already hold.

type AssessmentFlowSnapshot = SnapshotFrom<typeof assessmentFlowMachine>;
type DiagnosticSnapshot = SnapshotFrom<typeof diagnosticMachine>;
type MirrorSnapshot = SnapshotFrom<typeof mirrorMachine>;

/** The event types a state handles itself: its transitions' events, delayed ones (`xstate.after.…`) included. */
function ownEventTypes(snapshot: { _nodes: readonly { ownEvents: readonly string[] }[] }): string[] {
  return [...new Set(snapshot._nodes.flatMap((node) => node.ownEvents))];
}

/** Ways the assessment modal opens; together they reach every step. */
export const assessmentFlowOpenings: Record<string, AssessmentFlowInput> = {
  direct: {},
  'as Mirror': { mode: 'mirror' },
  'community referral as Mirror': { mode: 'mirror', communityReferral: true },
  'community referral': { communityReferral: true },
  'stored result': {
    storedResult: resultFor('homework'),
    knownSession: { leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'direct', leadToken: null },
  },
  'stored result with its deposit paid': {
    storedResult: resultFor('book_call'),
    storedPath: { kind: 'deposit_paid', booking: 'opened' },
    knownSession: { leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'direct', leadToken: null },
  },
  'after a standalone diagnostic': { standaloneDiagnostic: { id: STANDALONE_DIAGNOSTIC_ID, answers: sampleAnswers } },
};

/**
 * The events to try in an assessment flow's state: the samples of every type the state handles,
 * and a bare event for the types without samples, which are the delayed transitions.
 */
export function assessmentFlowEvents(snapshot: AssessmentFlowSnapshot): AssessmentFlowEvent[] {
  return ownEventTypes(snapshot).flatMap((type) => {
    const samples = sampleEvents.filter((event) => event.type === type);
    return samples.length > 0 ? samples : [{ type } as AssessmentFlowEvent];
  });
}

/**
 * Where an assessment flow is: the parts of context that change where events lead; the rest would
 * only multiply paths. The child-flow visit count is left out: every retake adds one, so with it the
 * walk would never end (a path's snapshot may carry the count of another path to the same key).
 */
export function assessmentFlowKey(snapshot: AssessmentFlowSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    tier: context.result && resultTier(context.result),
    purpose: context.paymentPurpose,
    checkout: context.checkoutUrl !== null,
    homework: context.homeworkSource,
    lead: context.session.leadId !== null,
    email: context.session.email !== null,
    survey: context.session.surveyCompleted,
    notice: context.notice?.description ?? null,
    path: context.completedPath,
    paid: context.session.paymentIntentId !== null,
    standalone: context.standaloneDiagnosticId !== null,
    reminded: [context.followUps.remindedToBook, context.followUps.remindedToFinish],
    testing: context.testingMode,
  });
}

/**
 * The events to try in a diagnostic's state: valid answers for the screen on show, plus a wrong
 * option, a partial ranking and a reversed one, so the walk also takes the refusals and the reorderings.
 */
export function diagnosticEvents(snapshot: DiagnosticSnapshot): DiagnosticEvent[] {
  const screen = snapshot.context.screens[snapshot.context.index];
  const samples: DiagnosticEvent[] = [
    { type: 'START_TIMED' },
    { type: 'ANSWER_LIKERT', value: 4, responseTime: 3000 },
    { type: 'SELECT_CONFIDENCE', value: 2 },
    { type: 'CONFIRM_RANKING', responseTime: 8000 },
    { type: 'GRADED', result: { archetype: 'Reluctant Steward', narrative: 'You hold on.', scores: { LER: 61 } } },
  ];
  if (screen?.type === 'vignette') {
    const chosen = screen.choiceIds[1] ?? screen.choiceIds[0] ?? '';
    samples.push(
      { type: 'SELECT_OPTION', optionId: chosen, responseTime: 2500 },
      { type: 'SELECT_OPTION', optionId: 'not_an_option', responseTime: 2500 },
    );
  }
  if (screen?.type === 'ranking') {
    samples.push(
      { type: 'REORDER_RANKING', order: screen.choiceIds.slice(0, 1) },
      { type: 'REORDER_RANKING', order: [...screen.choiceIds].reverse() },
    );
  }
  return ownEventTypes(snapshot).flatMap((type) => {
    const matching = samples.filter((event) => event.type === type);
    return matching.length > 0 ? matching : [{ type } as DiagnosticEvent];
  });
}

/**
 * Where a diagnostic run is. The answers given so far only matter to grading, so runs that differ
 * only in them (answered or timed out) count as one.
 */
export function diagnosticKey(snapshot: DiagnosticSnapshot): string {
  const { index, chosen, ranking, result } = snapshot.context;
  return JSON.stringify({ value: snapshot.value, index, chosen: chosen?.optionId ?? null, ranking, graded: result !== null });
}

/** What a visitor says to the Mirror: a message, a blank one it refuses, and the save choice both ways. */
const mirrorSamples: MirrorEvent[] = [
  { type: 'SEND', text: '  Whether to promote from within.  ' },
  { type: 'SEND', text: '   ' },
  { type: 'SET_SAVE', save: true },
  { type: 'SET_SAVE', save: false },
  { type: 'REPLY_RECEIVED', response: 'What makes it hard?', isComplete: false },
  { type: 'REPLY_RECEIVED', response: 'You know what to do.', isComplete: true },
  { type: 'REPLY_FAILED' },
];

/** The events to try in a Mirror chat's state: the samples of every type it handles, and its delayed reveal. */
function mirrorEvents(snapshot: MirrorSnapshot): MirrorEvent[] {
  return ownEventTypes(snapshot).flatMap((type) => {
    const samples = mirrorSamples.filter((event) => event.type === type);
    return samples.length > 0 ? samples : [{ type } as MirrorEvent];
  });
}

/** Where a Mirror chat is: its state, the turn, the save choice and the kind of reply waiting. */
function mirrorKey(snapshot: MirrorSnapshot): string {
  const { turn, save, pendingReply, sessionId } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    turn,
    save,
    session: sessionId !== null,
    pending: pendingReply && { complete: pendingReply.isComplete, fallback: pendingReply.fallback },
  });
}

/** The Mirror's session id in the corpus: a fixed one, where the machine makes a random one, so the corpus regenerates identically. */
const CORPUS_MIRROR_SESSION_ID = '5d2c9e1a-7b3f-4c8d-9e0a-1b2c3d4e5f60';

/** How the corpus walks one flow machine. Methods, so each machine's typed functions fit. */
interface CorpusWalk {
  /** The machine walked: the registry's, with a fixed id generator where it has a random one. */
  machine: AnyStateMachine;
  /** The inputs a flow starts from, by name; together they reach every state. */
  starts: Record<string, unknown>;
  events(snapshot: AnyMachineSnapshot): EventObject[];
  /** The walk's key: states with the same key are one. */
  key(snapshot: AnyMachineSnapshot): string;
  /** The corpus's key, coarser where the walk's would make the fixture file needlessly large. */
  corpusKey(snapshot: AnyMachineSnapshot): string;
}

/**
 * The corpus keeps one assessment flow snapshot per state and the context that decides where it can
 * go from there (a snapshot per walk key would be some 700 of them, 1.6 MB, mostly repeating each other).
 */
function assessmentFlowCorpusKey(snapshot: AssessmentFlowSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    mode: context.mode,
    tier: context.result && resultTier(context.result),
    purpose: context.paymentPurpose,
    path: context.completedPath,
    lead: context.session.leadId !== null,
    survey: context.session.surveyCompleted,
    standalone: context.standaloneDiagnosticId !== null,
    notice: context.notice !== null,
    // whether a reminder went, not which: enough to keep a reminded snapshot of each state
    reminded: context.followUps.remindedToBook || context.followUps.remindedToFinish,
  });
}

/**
 * The corpus keeps one diagnostic snapshot per state and kind of screen, not per screen index: every
 * snapshot carries the whole bank, and the screens on show differ only in their answers.
 */
function diagnosticCorpusKey(snapshot: DiagnosticSnapshot): string {
  const { index, screens, chosen, ranking, standalone, result } = snapshot.context;
  const screen = screens[index];
  return JSON.stringify({
    value: snapshot.value,
    screen: screen?.type ?? null,
    first: index === 0,
    chosen: chosen !== null,
    reordered: screen?.type === 'ranking' && ranking.join() !== screen.choiceIds.join(),
    standalone,
    graded: result !== null,
  });
}

/** The walks of the machines the server runs as flows, by the name the flows table stores. */
export const corpusWalks: Readonly<Record<FlowMachineName, CorpusWalk>> = {
  assessmentFlow: {
    machine: assessmentFlowMachine,
    starts: assessmentFlowOpenings,
    events: assessmentFlowEvents,
    key: assessmentFlowKey,
    corpusKey: assessmentFlowCorpusKey,
  },
  diagnostic: {
    machine: diagnosticMachine,
    // the real bank, as the server starts it: stored flows carry it in their context
    starts: { modal: { screens: diagnosticScreens }, standalone: { screens: diagnosticScreens, standalone: true } },
    events: diagnosticEvents,
    key: diagnosticKey,
    corpusKey: diagnosticCorpusKey,
  },
  mirror: {
    machine: mirrorMachine.provide({ actions: { assignSessionId: assign({ sessionId: CORPUS_MIRROR_SESSION_ID }) } }),
    starts: { chat: undefined },
    events: mirrorEvents,
    key: mirrorKey,
    corpusKey: mirrorKey,
  },
};

/** One stored snapshot of the corpus: how it was reached, the state it is in, and the snapshot as the engine stores it. */
export interface CorpusEntry {
  /** The opening and the events that reached it, e.g. 'direct: CAPTURE_SUBMIT > LEAD_SAVED'. */
  path: string;
  value: StateValue;
  snapshot: StoredSnapshot;
}

/** The corpus file of a machine's version, in machines/snapshot-corpus/. */
export function corpusFileName(machine: FlowMachineName, version: number = flowMachineVersions[machine].current): string {
  return `${machine}.v${version}.json`;
}

/**
 * One persisted snapshot of every state the machine's walk reaches from every start, the shortest
 * path kept where several reach one corpus key. Persisted as the engine persists a snapshot it has
 * moved with XState's pure transition functions, which is also how the walk moves (a delayed
 * transition is its `xstate.after.…` event, as the server's timers deliver it). Deterministic: the
 * walk's order is the events' order, and no snapshot holds a clock reading or a random id.
 */
export function buildCorpus(name: FlowMachineName): CorpusEntry[] {
  const walk = corpusWalks[name];
  const kept = new Map<string, { weight: number; entry: CorpusEntry }>();
  for (const [start, input] of Object.entries(walk.starts)) {
    const paths = getShortestPaths(walk.machine, {
      input,
      events: (snapshot) => walk.events(snapshot),
      serializeState: (snapshot) => walk.key(snapshot),
    });
    for (const path of paths) {
      const state: AnyMachineSnapshot = path.state;
      const key = walk.corpusKey(state);
      const previous = kept.get(key);
      if (previous && previous.weight <= path.weight) continue;
      const events = path.steps.map(({ event }: { event: EventObject }) => event.type).filter((type) => type !== 'xstate.init');
      const snapshot: StoredSnapshot = walk.machine.getPersistedSnapshot(state);
      kept.set(key, {
        weight: path.weight,
        entry: { path: `${start}: ${events.join(' > ') || '(opening)'}`, value: state.value as StateValue, snapshot },
      });
    }
  }
  return [...kept.values()].map(({ entry }) => entry);
}
