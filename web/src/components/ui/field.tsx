import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { cx } from './cx.js';

const control =
  'block w-full rounded-xl border bg-white px-4 py-3 text-base text-ink shadow-[inset_0_1px_2px_rgb(15_42_61/0.04)] transition-colors placeholder:text-muted/70 hover:border-ink/40 focus:border-ink focus-visible:outline-2 focus-visible:outline-offset-1 disabled:cursor-not-allowed disabled:bg-sand disabled:text-muted';

interface FieldOwnProps {
  /** The visible label (also the accessible name). */
  label: ReactNode;
  /** Help text under the control, linked with aria-describedby. */
  hint?: ReactNode;
  /** Error text; sets aria-invalid and is announced with the control. */
  error?: string | null;
  /** Marks the label "(optional)" instead of relying on colour or asterisks. */
  optional?: boolean;
  className?: string;
}

type InputFieldProps = FieldOwnProps & { multiline?: false; ref?: Ref<HTMLInputElement> } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'className'
  >;
type TextareaFieldProps = FieldOwnProps & { multiline: true; ref?: Ref<HTMLTextAreaElement> } & Omit<
    TextareaHTMLAttributes<HTMLTextAreaElement>,
    'className'
  >;
export type FieldProps = InputFieldProps | TextareaFieldProps;

/** A labelled input or textarea with hint and error text wired to aria-describedby. */
export function Field(props: FieldProps) {
  const generated = useId();
  const { label, hint, error, optional, className, id: givenId, ...controlProps } = props;
  const id = givenId ?? generated;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, controlProps['aria-describedby']].filter(Boolean).join(' ') || undefined;
  const shared = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: cx(control, error ? 'border-danger' : 'border-line'),
  } as const;

  return (
    <div className={cx('flex flex-col gap-2', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
        {optional && <span className="font-normal text-muted"> (optional)</span>}
      </label>
      {controlProps.multiline ? (
        <textarea {...stripMultiline(controlProps)} {...shared} />
      ) : (
        <input {...stripMultiline(controlProps)} {...shared} />
      )}
      {hint && (
        <p id={hintId} className="text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-danger">
          <svg viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="currentColor" aria-hidden="true">
            <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.75 4h1.5v5.5h-1.5V6Zm.75 8.75a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z" />
          </svg>
          {error}
        </p>
      )}
    </div>
  );
}

function stripMultiline<T extends { multiline?: boolean }>(props: T): Omit<T, 'multiline'> {
  const rest = { ...props };
  delete rest.multiline;
  return rest;
}
