import { useEffect, useEffectEvent, type ReactNode } from 'react';
import { cx } from '../../components/ui/index.js';
import { TEST_LEAD_NO_EMAIL } from '#machines/assessment-flow/assessment-flow.copy.js';
import type { Notice } from '#machines/protocol/common.js';

/** The small uppercase line above a step's content. */
export function StepEyebrow({ children }: { children: ReactNode }) {
  return <p className="text-xs font-semibold tracking-[0.18em] text-brass-deep uppercase">{children}</p>;
}

/** A machine's notice (the product's words) as an inline message; errors are announced assertively. */
export function NoticeBox({
  notice,
  tone = 'error',
  className,
}: {
  notice: Notice | null;
  tone?: 'error' | 'info' | 'success';
  className?: string;
}) {
  if (!notice || (!notice.title && !notice.description)) return null;
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cx(
        'rounded-2xl border px-4 py-3 text-sm leading-relaxed',
        tone === 'error' && 'border-danger/30 bg-danger-soft text-ink',
        tone === 'info' && 'border-line bg-sand text-ink',
        tone === 'success' && 'border-success/30 bg-[#eaf5ef] text-ink',
        className,
      )}
    >
      {notice.title && <p className={cx('font-semibold', tone === 'error' && 'text-danger')}>{notice.title}</p>}
      {notice.description && <p>{notice.description}</p>}
    </div>
  );
}

/** Said in testing mode wherever a screen would otherwise promise an email (a test lead gets none). */
export function TestLeadNote({ className }: { className?: string }) {
  return (
    <p
      role="note"
      data-testid="test-lead-note"
      className={cx('rounded-2xl border border-dashed border-line px-4 py-3 text-sm text-muted', className)}
    >
      {TEST_LEAD_NO_EMAIL}
    </p>
  );
}

/** A quiet spinner for waiting states (still under prefers-reduced-motion). */
export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      className={cx('animate-spin motion-reduce:animate-none', className ?? 'size-5')}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** A centred waiting panel: a spinner, a heading and an explanation. */
export function Waiting({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div role="status" className="flex flex-col items-center gap-5 py-10 text-center">
      <span className="flex size-16 items-center justify-center rounded-full bg-sand text-brass-deep">
        <Spinner className="size-8" />
      </span>
      <p className="font-serif text-2xl text-ink">{title}</p>
      {children && <div className="max-w-md text-base leading-relaxed text-muted">{children}</div>}
    </div>
  );
}

/** A tick in a brass circle, for confirmations. */
export function DoneMark() {
  return (
    <span className="flex size-16 items-center justify-center rounded-full bg-ink text-brass" aria-hidden="true">
      <svg
        viewBox="0 0 24 24"
        className="size-8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="m5 12.5 4.5 4.5L19 7.5" />
      </svg>
    </span>
  );
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * Number keys as shortcuts (1 to `count`) while `active`: the likert and confidence scales and a
 * vignette's options. Ignored while typing or with a modifier key held.
 */
export function useNumberKeys(count: number, active: boolean, onPick: (value: number) => void): void {
  const pick = useEffectEvent((value: number) => onPick(value));
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.repeat || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const value = Number(event.key);
      if (Number.isInteger(value) && value >= 1 && value <= count) {
        event.preventDefault();
        pick(value);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count, active]);
}

/**
 * A row of 1-5 buttons (likert agreement, confidence). Each shows its number and its label; the
 * label text is the accessible name, with the number as the shortcut hint.
 */
export function ScaleButtons({
  labels,
  onPick,
  disabled = false,
  legend,
  selected = null,
}: {
  labels: readonly string[];
  onPick: (value: number) => void;
  disabled?: boolean;
  legend: string;
  selected?: number | null;
}) {
  useNumberKeys(labels.length, !disabled, onPick);
  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">{legend}</legend>
      <div className="grid grid-cols-5 gap-2 sm:gap-3">
        {labels.map((label, index) => {
          const value = index + 1;
          return (
            <button
              key={value}
              type="button"
              disabled={disabled}
              aria-pressed={selected === value}
              aria-keyshortcuts={String(value)}
              onClick={() => onPick(value)}
              className={cx(
                'group flex min-h-24 flex-col items-center justify-start gap-2 rounded-2xl border px-1 pt-3 pb-2 text-center transition-colors sm:min-h-28 sm:px-2',
                'border-line bg-white hover:border-ink/50 hover:bg-sand/60 disabled:cursor-not-allowed disabled:opacity-60',
                selected === value && 'border-ink bg-ink text-white hover:bg-ink',
              )}
            >
              <span
                className={cx(
                  'flex size-9 items-center justify-center rounded-full border text-base font-semibold tabular-nums sm:size-10',
                  selected === value ? 'border-brass bg-brass text-ink' : 'border-ink/20 text-ink group-hover:border-ink/60',
                )}
              >
                {value}
              </span>
              <span className={cx('text-[0.7rem] leading-tight sm:text-xs', selected === value ? 'text-white' : 'text-muted')}>
                {label}
              </span>
            </button>
          );
        })}
      </div>
      <p className="mt-3 hidden text-xs text-muted sm:block">Tip: press 1 to {labels.length} on your keyboard.</p>
    </fieldset>
  );
}

/** A large option button (vignette choices), lettered A, B, C... with number keys as shortcuts. */
export function OptionButton({
  index,
  children,
  onClick,
  disabled,
}: {
  index: number;
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-keyshortcuts={String(index + 1)}
      className="group flex w-full items-start gap-4 rounded-2xl border border-line bg-white p-4 text-left transition-colors hover:border-ink/50 hover:bg-sand/60 disabled:cursor-not-allowed disabled:opacity-60 sm:p-5"
    >
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full border border-ink/20 text-sm font-semibold text-ink group-hover:border-ink/60">
        {String.fromCharCode(65 + index)}
      </span>
      <span className="pt-1 text-[0.95rem] leading-relaxed text-ink">{children}</span>
    </button>
  );
}
