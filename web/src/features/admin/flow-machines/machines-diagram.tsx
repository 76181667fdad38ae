import { useId } from 'react';
import { cx } from '#web/components/ui/index.js';
import { BOX_H, BOX_W, layoutMachine, type MachineSummary } from './machines-layout.js';

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
