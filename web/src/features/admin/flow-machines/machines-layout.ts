import type { MachineState, MachinesAnswer } from '#machines/protocol/admin/machines.js';

/** One machine of GET /api/admin/machines. */
export type MachineSummary = MachinesAnswer['machines'][number];

export interface DiagramNode {
  state: MachineState;
  layer: number;
  x: number;
  y: number;
}

export interface DiagramEdge {
  from: string;
  to: string;
  events: string[];
}

export interface DiagramLayout {
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** Events a state handles without leaving it, by state path. */
  loops: Map<string, string[]>;
  /** How each edge is drawn: a curve to the next column, or along a lane above (forward past
   * other columns) or below (back to an earlier or the same column) the boxes. */
  routes: Map<DiagramEdge, EdgeRoute>;
  laneY: (route: EdgeRoute) => number;
  width: number;
  totalHeight: number;
}

export interface EdgeRoute {
  kind: 'direct' | 'over' | 'under';
  lane: number;
}

export const BOX_W = 150;
export const BOX_H = 50;
const COL_GAP = 120;
const ROW_GAP = 34;
const LANE_GAP = 15;
const PAD = 24;
/** Room left of the first column for lanes coming back into it. */
const PAD_X = 64;

/**
 * A layered layout of the machine's leaf states: columns by shortest distance (in transitions)
 * from the initial state, rows ordered by the mean row of each state's predecessors. Compound
 * targets resolve to their initial leaf; a compound state's own transitions leave from each of
 * its leaves; edges between the same two states merge into one arrow with all their events.
 */
export function layoutMachine(machine: MachineSummary): DiagramLayout {
  const byPath = new Map(machine.states.map((state) => [state.path, state]));
  const leaves = machine.states.filter((state) => state.type !== 'compound' && state.type !== 'parallel' && state.type !== 'history');
  const resolve = (path: string): string => {
    let state = byPath.get(path);
    while (state && state.type === 'compound' && state.initial) state = byPath.get(state.initial);
    return state?.path ?? path;
  };
  const ancestors = (state: MachineState): MachineState[] => {
    const chain: MachineState[] = [];
    for (let current: MachineState | undefined = state; current; current = current.parent ? byPath.get(current.parent) : undefined)
      chain.push(current);
    return chain;
  };

  const edgeMap = new Map<string, DiagramEdge>();
  const loops = new Map<string, string[]>();
  for (const leaf of leaves) {
    for (const owner of ancestors(leaf)) {
      for (const transition of owner.transitions) {
        const to = resolve(transition.target);
        const label = transition.event;
        if (to === leaf.path) {
          const list = loops.get(leaf.path) ?? [];
          if (!list.includes(label)) list.push(label);
          loops.set(leaf.path, list);
          continue;
        }
        const key = `${leaf.path}\u0000${to}`;
        const edge = edgeMap.get(key) ?? { from: leaf.path, to, events: [] };
        if (!edge.events.includes(label)) edge.events.push(label);
        edgeMap.set(key, edge);
      }
    }
  }
  const edges = [...edgeMap.values()].filter((edge) => byPath.has(edge.to));

  // depth first from the initial leaf: an edge back to a state still on the path closes a cycle
  // and is drawn as a back edge; the rest form a DAG whose longest paths give the columns
  const outgoing = (path: string) => edges.filter((edge) => edge.from === path);
  const visited = new Set<string>();
  const onPath = new Set<string>();
  const back = new Set<DiagramEdge>();
  const order: string[] = [];
  const visit = (path: string) => {
    visited.add(path);
    onPath.add(path);
    for (const edge of outgoing(path)) {
      if (onPath.has(edge.to)) back.add(edge);
      else if (!visited.has(edge.to)) visit(edge.to);
    }
    onPath.delete(path);
    order.push(path);
  };
  visit(machine.initial);
  const reached = new Set(visited);
  for (const leaf of leaves) if (!visited.has(leaf.path)) visit(leaf.path);
  const layerOf = new Map<string, number>(leaves.map((leaf) => [leaf.path, 0]));
  for (const path of order.reverse()) {
    for (const edge of outgoing(path)) {
      if (!back.has(edge)) layerOf.set(edge.to, Math.max(layerOf.get(edge.to) ?? 0, layerOf.get(path)! + 1));
    }
  }
  // states the start never reaches go after everything else
  const deepest = Math.max(0, ...[...reached].map((path) => layerOf.get(path) ?? 0));
  for (const leaf of leaves) if (!reached.has(leaf.path)) layerOf.set(leaf.path, deepest + 1 + (layerOf.get(leaf.path) ?? 0));

  const columns: MachineState[][] = [];
  for (const leaf of leaves) (columns[layerOf.get(leaf.path)!] ??= []).push(leaf);
  const rowOf = new Map<string, number>();
  columns.forEach((column) => column?.forEach((state, row) => rowOf.set(state.path, row)));
  // barycenter sweeps, left to right by predecessors then right to left by successors
  const sweep = (column: MachineState[], neighbours: (state: MachineState) => string[]) => {
    const weights = new Map(
      column.map((state, row) => {
        const rows = neighbours(state)
          .filter((path) => rowOf.has(path))
          .map((path) => rowOf.get(path)!);
        return [state.path, rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : row];
      }),
    );
    column.sort((a, b) => weights.get(a.path)! - weights.get(b.path)!);
    column.forEach((state, row) => rowOf.set(state.path, row));
  };
  const predecessors = (state: MachineState) =>
    edges.filter((edge) => edge.to === state.path && layerOf.get(edge.from)! < layerOf.get(state.path)!).map((edge) => edge.from);
  const successors = (state: MachineState) =>
    edges.filter((edge) => edge.from === state.path && layerOf.get(edge.to)! > layerOf.get(state.path)!).map((edge) => edge.to);
  for (let pass = 0; pass < 4; pass++) {
    for (let index = 1; index < columns.length; index++) if (columns[index]) sweep(columns[index]!, predecessors);
    for (let index = columns.length - 2; index >= 0; index--) if (columns[index]) sweep(columns[index]!, successors);
  }

  const span = (edge: DiagramEdge) => layerOf.get(edge.to)! - layerOf.get(edge.from)!;
  const routes = new Map<DiagramEdge, EdgeRoute>();
  let above = 0;
  let below = 0;
  for (const edge of edges) {
    if (span(edge) === 1) routes.set(edge, { kind: 'direct', lane: 0 });
    else if (span(edge) > 1) routes.set(edge, { kind: 'over', lane: ++above });
    else routes.set(edge, { kind: 'under', lane: ++below });
  }
  const tallest = Math.max(1, ...columns.map((column) => column?.length ?? 0));
  const boxesTop = PAD + above * LANE_GAP + (above ? 10 : 0);
  const boxesHeight = tallest * BOX_H + (tallest - 1) * ROW_GAP;
  const nodes: DiagramNode[] = [];
  columns.forEach((column, layer) => {
    if (!column) return;
    const columnHeight = column.length * BOX_H + (column.length - 1) * ROW_GAP;
    const top = boxesTop + (boxesHeight - columnHeight) / 2;
    column.forEach((state, row) => nodes.push({ state, layer, x: PAD_X + layer * (BOX_W + COL_GAP), y: top + row * (BOX_H + ROW_GAP) }));
  });
  const width = PAD_X * 2 + columns.length * BOX_W + Math.max(0, columns.length - 1) * COL_GAP;
  const lanesBelow = boxesTop + boxesHeight + 16;
  return {
    nodes,
    edges,
    routes,
    loops,
    width,
    laneY: (route: EdgeRoute) => (route.kind === 'over' ? PAD + (above - route.lane) * LANE_GAP : lanesBelow + (route.lane - 1) * LANE_GAP),
    totalHeight: lanesBelow + below * LANE_GAP + PAD,
  };
}
