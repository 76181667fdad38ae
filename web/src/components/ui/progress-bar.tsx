import { cx } from './cx.js';

export interface ProgressBarProps {
  /** Current value, from 0 to max. */
  value: number;
  max?: number;
  /** Accessible name, e.g. 'Diagnostic progress'. */
  label: string;
  /** Visible text next to the label, e.g. '3 of 21'; also the aria-valuetext. */
  valueText?: string;
  /** Show the label row above the bar. */
  showLabel?: boolean;
  tone?: 'ink' | 'brass';
  className?: string;
}

/**
 * A determinate progress bar (role=progressbar). The fill is an SVG rectangle whose width is an
 * attribute: a style attribute would be refused by the CSP (style-src 'self') in a page rendered
 * at build time, where no script sets it.
 */
export function ProgressBar({ value, max = 100, label, valueText, showLabel = false, tone = 'ink', className }: ProgressBarProps) {
  const clamped = Math.min(Math.max(value, 0), max);
  const percent = max > 0 ? (clamped / max) * 100 : 0;
  return (
    <div className={cx('w-full', className)}>
      {showLabel && (
        <div className="mb-2 flex items-baseline justify-between gap-4 text-sm">
          <span className="font-medium text-ink">{label}</span>
          {valueText && <span className="text-muted tabular-nums">{valueText}</span>}
        </div>
      )}
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={clamped}
        aria-valuetext={valueText}
        className="h-2 w-full overflow-hidden rounded-full bg-ink/10"
      >
        <svg className="block h-full w-full" aria-hidden="true" focusable="false">
          <rect
            width={`${percent}%`}
            height="100%"
            rx="4"
            className={cx('transition-[width] duration-500 ease-out', tone === 'brass' ? 'fill-brass' : 'fill-ink')}
          />
        </svg>
      </div>
    </div>
  );
}
