import { initialTransition, transition, type AnyStateMachine } from 'xstate';
import { flowMachines } from '#machines/index.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { FlowEventRow } from './leads-api.js';

interface ReplayStep {
  seq: number;
  type: string;
  origin: string;
  created_at: string;
  /** The state the shared machine reaches by this event, or null when the replay could not run. */
  replayed: string | null;
  /** The state the server recorded after this event. */
  recorded: string;
}

export interface Replay {
  /** The machine's initial state, or null when the machine is unknown or needs input the log lacks. */
  initial: string | null;
  steps: ReplayStep[];
  /** Why the replay could not run (the recorded states are still shown). */
  problem: string | null;
}

/**
 * Steps the shared flow machine from its initial state through a flow's recorded events, with
 * XState's pure transition function (no effects run), and records the state after each one.
 */
export function replayFlow(machineName: string, events: FlowEventRow[]): Replay {
  const recordedOnly = (problem: string): Replay => ({
    initial: null,
    steps: events.map((event) => ({
      seq: event.seq,
      type: event.type,
      origin: event.origin,
      created_at: event.created_at,
      replayed: null,
      recorded: event.state_after,
    })),
    problem,
  });
  const machine = (flowMachines as Record<string, AnyStateMachine | undefined>)[machineName];
  if (!machine) return recordedOnly(`No shared machine named ${machineName}.`);
  let snapshot;
  try {
    [snapshot] = initialTransition(machine, {});
  } catch {
    return recordedOnly(`The ${machineName} machine needs the flow's start input to replay; the recorded states are shown.`);
  }
  const initial = statePath(snapshot.value);
  const steps: ReplayStep[] = [];
  let problem: string | null = null;
  for (const event of events) {
    let replayed: string | null = null;
    if (!problem) {
      try {
        [snapshot] = transition(machine, snapshot, { ...event.payload, type: event.type });
        replayed = statePath(snapshot.value);
      } catch (error) {
        problem = `The replay stopped at event ${event.seq} (${event.type}): ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    steps.push({
      seq: event.seq,
      type: event.type,
      origin: event.origin,
      created_at: event.created_at,
      replayed,
      recorded: event.state_after,
    });
  }
  return { initial, steps, problem };
}
