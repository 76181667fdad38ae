import { useId } from 'react';
import { cx } from '../../components/ui/index.js';

/** GET /api/admin/machines (server/admin/machines.ts machinesSchema). */
interface MachineTransition {
  event: string;
  target: string;
  guard: string | null;
}

interface MachineState {
  path: string;
  key: string;
  parent: string | null;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  transient: boolean;
  initial: string | null;
  transitions: MachineTransition[];
  count: number;
}

export interface MachineSummary {
  name: string;
  id: string;
  initial: string;
  states: MachineState[];
  global: Array<{ event: string; target: string | null; guard: string | null }>;
  unknown: Array<{ state: string; count: number }>;
  totalFlows: number;
  eventsPerMinute: number[];
}

interface DiagramNode {
  state: MachineState;
  layer: number;
  x: number;
  y: number;
}

interface DiagramEdge {
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

interface EdgeRoute {
  kind: 'direct' | 'over' | 'under';
  lane: number;
}

const BOX_W = 150;
const BOX_H = 50;
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
function layoutMachine(machine: MachineSummary): DiagramLayout {
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

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** The machine as an SVG: a box per state with its live count, an arrow per transition. */
export function MachineDiagram({ machine }: { machine: MachineSummary }) {
  const layout = layoutMachine(machine);
  const markerId = useId().replace(/:/g, '');
  const at = new Map(layout.nodes.map((node) => [node.state.path, node]));
  const busiest = Math.max(1, ...layout.nodes.map((node) => node.state.count));
  return (
    <svg
      viewBox={`0 0 ${layout.width} ${layout.totalHeight}`}
      width={layout.width}
      height={layout.totalHeight}
      className="block max-w-none font-sans"
      role="img"
      aria-label={`State diagram of ${machine.name}: ${layout.nodes.length} states, ${machine.totalFlows} flows. The table below lists the same states and counts.`}
    >
      <defs>
        <marker id={markerId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="fill-ink/60" />
        </marker>
      </defs>
      <g aria-hidden="true">
        {layout.edges.map((edge) => {
          const from = at.get(edge.from);
          const to = at.get(edge.to);
          if (!from || !to) return null;
          const label = truncate(edge.events.join(', '), 24);
          let d: string;
          let lx: number;
          let ly: number;
          const route = layout.routes.get(edge)!;
          const forward = route.kind !== 'under';
          if (route.kind === 'direct') {
            const x1 = from.x + BOX_W;
            const y1 = from.y + BOX_H / 2;
            const x2 = to.x;
            const y2 = to.y + BOX_H / 2;
            const bend = Math.max(40, (x2 - x1) / 2);
            d = `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
            lx = (x1 + x2) / 2;
            ly = (y1 + y2) / 2;
          } else {
            // out through the gap right of the source's column, along its lane, down or up the gap
            // left of the target's column and into the target's left side
            const shift = (route.lane % 8) * 5;
            const x1 = from.x + BOX_W;
            const y1 = from.y + BOX_H / 2 + (route.kind === 'over' ? -8 : 8);
            const gapRight = from.x + BOX_W + 8 + shift;
            const gapLeft = to.x - 12 - shift;
            const y2 = to.y + BOX_H / 2 + (route.kind === 'over' ? -8 : 8);
            const laneY = layout.laneY(route);
            d = `M${x1},${y1} H${gapRight} V${laneY} H${gapLeft} V${y2} H${to.x}`;
            lx = (gapRight + gapLeft) / 2;
            ly = laneY - 1;
          }
          const title = `${edge.from} → ${edge.to}: ${edge.events.join(', ')}`;
          return (
            <g key={`${edge.from}-${edge.to}`} data-edge={`${edge.from}->${edge.to}`}>
              <title>{title}</title>
              <path
                d={d}
                fill="none"
                className={forward ? 'stroke-ink/45' : 'stroke-brass-deep/70'}
                strokeWidth={1.3}
                strokeLinejoin="round"
                markerEnd={`url(#${markerId})`}
              />
              <text
                x={lx}
                y={ly}
                textAnchor="middle"
                dominantBaseline="middle"
                className="fill-ink-700 text-[9.5px]"
                paintOrder="stroke"
                stroke="white"
                strokeWidth={3}
              >
                {label}
              </text>
            </g>
          );
        })}
        {layout.nodes.map((node) => {
          const { state } = node;
          const live = state.count > 0;
          const initial = state.path === machine.initial;
          const parent = state.parent;
          const loops = layout.loops.get(state.path);
          return (
            <g key={state.path} data-state={state.path} transform={`translate(${node.x},${node.y})`}>
              <title>{`${state.path}: ${state.count} ${state.count === 1 ? 'flow' : 'flows'}${loops ? ` (also takes ${loops.join(', ')})` : ''}`}</title>
              <rect
                width={BOX_W}
                height={BOX_H}
                rx={state.transient ? 25 : 12}
                className={cx(
                  live ? 'fill-brass/15 stroke-brass-deep' : 'fill-white stroke-ink/30',
                  state.type === 'final' && 'stroke-[3px]',
                )}
                strokeWidth={initial ? 2.5 : 1.3}
                strokeDasharray={state.transient ? '4 3' : undefined}
                style={live ? { fillOpacity: 0.15 + 0.5 * (state.count / busiest) } : undefined}
              />
              {parent && (
                <text x={10} y={16} className="fill-muted text-[9px] tracking-wider uppercase">
                  {truncate(parent, 22)}
                </text>
              )}
              <text x={10} y={parent ? 34 : BOX_H / 2} dominantBaseline="middle" className="fill-ink text-[12.5px] font-semibold">
                {truncate(state.key, 17)}
              </text>
              {loops && (
                <text x={10} y={BOX_H - 5} className="fill-muted text-[8px]">
                  {`↻ ${truncate(loops.join(', '), 26)}`}
                </text>
              )}
              <g transform={`translate(${BOX_W - 8},${-8})`} data-count={state.count}>
                <circle r={12} className={live ? 'fill-ink' : 'fill-sand-deep'} />
                <text
                  textAnchor="middle"
                  dominantBaseline="central"
                  className={cx('text-[10.5px] font-bold', live ? 'fill-white' : 'fill-ink')}
                >
                  {state.count > 999 ? '999+' : state.count}
                </text>
              </g>
            </g>
          );
        })}
      </g>
    </svg>
  );
}
