import type pg from 'pg';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { flowMachines } from '#machines/index.js';
import type { MachineState, MachineTransition, MachinesAnswer } from '#machines/protocol/admin/machines.js';

/** Minutes of flow events the machines screen charts. */
const EVENT_WINDOW_MINUTES = 60;

function dotted(node: AnyStateNode): string {
  return node.path.join('.');
}

function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const combined = (guard as { guards?: unknown[] }).guards;
    if (combined) {
      const parts = combined.map((part) => guardName(part) ?? '?');
      return guard.name === 'not' ? `not ${parts.join(', ')}` : parts.join(` ${guard.name} `);
    }
    return guard.name || 'inline guard';
  }
  const { type, params } = guard as { type?: string; params?: object };
  return `${type ?? 'guard'}${params === undefined ? '' : `(${Object.values(params).join(', ')})`}`;
}

/** An event type in words: delays and invoked actors' outcomes read as such. */
function eventLabel(machine: AnyStateMachine, node: AnyStateNode, eventType: string): string {
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after?.[1]) {
    const delay: unknown = machine.implementations.delays[after[1]] ?? Number(after[1]);
    return typeof delay === 'number' && !Number.isNaN(delay) ? `after ${delay} ms` : `after ${after[1]}`;
  }
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor?.[1] && actor[2]) {
    const invoked = node.invoke.find((definition) => definition.id === actor[2]);
    return `${typeof invoked?.src === 'string' ? invoked.src : actor[2]} ${actor[1]}`;
  }
  return eventType;
}

function transitionsOf(machine: AnyStateMachine, node: AnyStateNode): MachineTransition[] {
  const out: MachineTransition[] = [];
  for (const transition of node.always ?? []) {
    for (const target of transition.target ?? [node])
      out.push({ event: 'always', target: dotted(target), guard: guardName(transition.guard) });
  }
  for (const [eventType, transitions] of node.transitions) {
    const event = eventLabel(machine, node, eventType);
    for (const transition of transitions) {
      for (const target of transition.target ?? [node]) out.push({ event, target: dotted(target), guard: guardName(transition.guard) });
    }
  }
  return out;
}

/** Follows initial children down to a leaf. */
function initialLeaf(node: AnyStateNode): AnyStateNode {
  let current = node;
  while (current.type === 'compound' && current.initial?.target[0]) current = current.initial.target[0];
  return current;
}

/** Every state node below the root, depth first, with its transitions; counts are filled in later. */
function describeMachine(
  name: string,
  machine: AnyStateMachine,
): Omit<MachinesAnswer['machines'][number], 'unknown' | 'totalFlows' | 'eventsPerMinute'> {
  const states: MachineState[] = [];
  const walk = (node: AnyStateNode) => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      const initial = child.type === 'compound' ? child.initial?.target[0] : undefined;
      states.push({
        path: dotted(child),
        key: child.key,
        parent: node === machine.root ? null : dotted(node),
        type: child.type,
        transient: (child.always?.length ?? 0) > 0 && child.transitions.size === 0,
        initial: initial ? dotted(initial) : null,
        transitions: transitionsOf(machine, child),
        count: 0,
      });
      walk(child);
    }
  };
  walk(machine.root);
  const global = [...machine.root.transitions].flatMap(([eventType, transitions]) =>
    transitions.map((transition) => ({
      event: eventLabel(machine, machine.root, eventType),
      target: transition.target?.[0] ? dotted(transition.target[0]) || null : null,
      guard: guardName(transition.guard),
    })),
  );
  return { name, id: machine.id, initial: dotted(initialLeaf(machine.root)), states, global };
}

/** Every flow machine with its states, the flows now in each and its event rate over the last hour. */
export async function machinesOverview(db: pg.Pool): Promise<MachinesAnswer> {
  const [counts, rates] = await Promise.all([
    db.query<{ machine: string; state: string; count: number }>('SELECT machine, state, count(*)::int AS count FROM flows GROUP BY 1, 2'),
    db.query<{ machine: string; ago: number; count: number }>(
      `SELECT f.machine, floor(extract(epoch FROM date_trunc('minute', now()) - date_trunc('minute', e.created_at)) / 60)::int AS ago,
              count(*)::int AS count
       FROM flow_events e JOIN flows f ON f.id = e.flow_id
       WHERE e.created_at > date_trunc('minute', now()) - make_interval(mins => $1)
       GROUP BY 1, 2`,
      [EVENT_WINDOW_MINUTES - 1],
    ),
  ]);
  const machines = Object.entries(flowMachines).map(([name, machine]) => {
    const described = describeMachine(name, machine);
    const byPath = new Map(described.states.map((state) => [state.path, state]));
    const unknown: { state: string; count: number }[] = [];
    let totalFlows = 0;
    for (const row of counts.rows) {
      if (row.machine !== name) continue;
      totalFlows += row.count;
      const state = byPath.get(row.state);
      if (!state) {
        unknown.push({ state: row.state, count: row.count });
        continue;
      }
      // the leaf and every compound state above it hold the flow
      for (let current: MachineState | undefined = state; current; current = current.parent ? byPath.get(current.parent) : undefined) {
        current.count += row.count;
      }
    }
    const eventsPerMinute = Array.from({ length: EVENT_WINDOW_MINUTES }, () => 0);
    for (const row of rates.rows) {
      if (row.machine === name && row.ago >= 0 && row.ago < EVENT_WINDOW_MINUTES)
        eventsPerMinute[EVENT_WINDOW_MINUTES - 1 - row.ago] = row.count;
    }
    return { ...described, unknown, totalFlows, eventsPerMinute };
  });
  return { machines };
}
