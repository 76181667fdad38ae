import { useId } from 'react';
import { DISPLAY_DIMENSIONS, DisplayDimension } from '#machines/content/dimensions.js';

const SIZE = 320;
const CENTER = SIZE / 2;
const RADIUS = 108;
const RINGS = [25, 50, 75, 100];

/** The point at `percent` of the radius along axis `index` of `count`, the first pointing up. */
function point(index: number, count: number, percent: number): [number, number] {
  const angle = -Math.PI / 2 + (index * 2 * Math.PI) / count;
  const r = (RADIUS * Math.max(0, Math.min(100, percent))) / 100;
  return [CENTER + r * Math.cos(angle), CENTER + r * Math.sin(angle)];
}

const path = (points: Array<[number, number]>) => points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

/**
 * The six results dimensions (LER, DCR, TBR, OAD, VIS, FAD) as an SVG radar chart, with the same
 * scores as a list beside it: the list is what assistive technology reads, the chart a picture
 * of it. A result that carries only some scores (the canned fallback) shows those.
 */
export function ScoreChart({ scores }: { scores: Partial<Record<string, number>> }) {
  const titleId = useId();
  const dimensions = DisplayDimension.options;
  const shown = dimensions.filter((d) => typeof scores[d] === 'number');
  const values = dimensions.map((d) => scores[d] ?? 0);
  return (
    <div className="grid items-center gap-6 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} className="mx-auto w-full max-w-[18rem]" role="img" aria-labelledby={titleId}>
        <title id={titleId}>Radar chart of your six dimension scores, each out of 100</title>
        {RINGS.map((ring) => (
          <polygon
            key={ring}
            points={path(dimensions.map((_, i) => point(i, dimensions.length, ring)))}
            className={ring === 100 ? 'fill-paper stroke-line' : 'fill-none stroke-line'}
            strokeWidth={ring === 100 ? 1.5 : 1}
          />
        ))}
        {dimensions.map((d, i) => {
          const [x, y] = point(i, dimensions.length, 100);
          return <line key={d} x1={CENTER} y1={CENTER} x2={x} y2={y} className="stroke-line" strokeWidth={1} />;
        })}
        {shown.length === dimensions.length && (
          <polygon
            points={path(values.map((v, i) => point(i, dimensions.length, v)))}
            className="fill-brass/30 stroke-brass-deep"
            strokeWidth={2}
            strokeLinejoin="round"
          />
        )}
        {values.map((v, i) =>
          typeof scores[dimensions[i]!] === 'number' ? (
            <circle
              key={dimensions[i]}
              cx={point(i, dimensions.length, v)[0]}
              cy={point(i, dimensions.length, v)[1]}
              r={4}
              className="fill-ink"
            />
          ) : null,
        )}
        {dimensions.map((d, i) => {
          const [x, y] = point(i, dimensions.length, 124);
          return (
            <text key={d} x={x} y={y} textAnchor="middle" dominantBaseline="middle" fontSize={14} fontWeight={600} className="fill-ink">
              {d}
            </text>
          );
        })}
      </svg>
      <ul className="flex flex-col gap-3">
        {shown.map((d) => (
          <li key={d} className="flex flex-col gap-1.5">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="text-ink">
                <span className="font-semibold">{d}</span> <span className="text-muted">{DISPLAY_DIMENSIONS[d].label}</span>
              </span>
              <span className="font-semibold text-ink tabular-nums">{Math.round(scores[d]!)}</span>
            </div>
            <svg viewBox="0 0 100 6" preserveAspectRatio="none" className="h-1.5 w-full" aria-hidden="true">
              <rect width="100" height="6" rx="3" className="fill-sand-deep" />
              <rect width={Math.max(0, Math.min(100, scores[d]!))} height="6" rx="3" className="fill-ink" />
            </svg>
          </li>
        ))}
      </ul>
    </div>
  );
}
