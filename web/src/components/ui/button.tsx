import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { cx } from './cx.js';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'accent' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-full font-semibold tracking-tight transition-colors duration-150 select-none disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  /** ink on light backgrounds: the one main action of a screen */
  primary: 'bg-ink text-white shadow-soft hover:bg-ink-800 active:bg-ink-700',
  /** outlined: the second action next to a primary one */
  secondary: 'border border-ink/25 bg-white/60 text-ink hover:border-ink/50 hover:bg-white',
  /** text only: low-emphasis actions (Sign Out, Back) */
  ghost: 'text-ink hover:bg-ink/5',
  /** brass on ink bands, where the primary would disappear */
  accent: 'bg-brass text-ink shadow-soft hover:bg-brass-light',
  /** outlined in white: the second action on ink bands */
  inverse: 'border border-white/35 text-white hover:border-white/70 hover:bg-white/10',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'min-h-9 px-4 text-sm',
  md: 'min-h-11 px-5 text-[0.95rem]',
  lg: 'min-h-13 px-7 text-base',
};

/** The class names of a button, for elements that must look like one (links, Headless UI buttons). */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  block = false,
}: { variant?: ButtonVariant; size?: ButtonSize; block?: boolean } = {}): string {
  return cx(base, variants[variant], sizes[size], block && 'w-full');
}

interface StyleProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** full width */
  block?: boolean;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, StyleProps {
  /** Shows a spinner, disables the button and sets aria-busy; `loadingText` replaces the label. */
  loading?: boolean;
  loadingText?: ReactNode;
}

function Spinner() {
  return (
    <svg className="size-4 animate-spin motion-reduce:animate-none" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** A button in one of four variants and three sizes, with a loading state. */
export function Button({
  variant,
  size,
  block,
  loading = false,
  loadingText,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cx(buttonClasses({ variant, size, block }), className)}
      {...rest}
    >
      {loading && <Spinner />}
      {loading && loadingText !== undefined ? loadingText : children}
    </button>
  );
}

export interface ButtonLinkProps extends Omit<LinkProps, 'className'>, StyleProps {
  className?: string;
}

/** A router link styled as a button (navigation stays a link for assistive technology). */
export function ButtonLink({ variant, size, block, className, ...rest }: ButtonLinkProps) {
  return <Link className={cx(buttonClasses({ variant, size, block }), className)} {...rest} />;
}

export interface ExternalButtonLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement>, StyleProps {
  href: string;
}

/** An external link styled as a button; opens in a new tab. */
export function ExternalButtonLink({ variant, size, block, className, children, ...rest }: ExternalButtonLinkProps) {
  return (
    <a target="_blank" rel="noopener noreferrer" className={cx(buttonClasses({ variant, size, block }), className)} {...rest}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
