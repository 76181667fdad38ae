import { useId, type HTMLAttributes, type ReactNode } from 'react';
import { cx } from './cx.js';

type SectionTone = 'paper' | 'sand' | 'white' | 'ink';

export interface SectionProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  tone?: SectionTone;
  /** Small uppercase line above the title. */
  eyebrow?: ReactNode;
  /** The section heading; also labels the section landmark. */
  title?: ReactNode;
  /** Heading level of the title (2 by default). */
  level?: 1 | 2;
  /** A lead paragraph under the title. */
  intro?: ReactNode;
  align?: 'left' | 'center';
  /** Vertical rhythm: 'default' for page sections, 'compact' for tight bands, 'hero' for the top of a page. */
  spacing?: 'default' | 'compact' | 'hero';
  /** Width of the content column. */
  width?: 'narrow' | 'default' | 'wide';
  children?: ReactNode;
}

const tones: Record<SectionTone, string> = {
  paper: 'bg-paper text-ink',
  sand: 'bg-sand text-ink',
  white: 'bg-white text-ink',
  ink: 'bg-ink text-white',
};

const spacings = {
  default: 'py-20 sm:py-28',
  compact: 'py-14 sm:py-18',
  hero: 'pt-32 pb-20 sm:pt-40 sm:pb-28',
};

const widths = { narrow: 'max-w-3xl', default: 'max-w-6xl', wide: 'max-w-7xl' };

/** A page band: one tone, one content width, one heading with its eyebrow and intro. */
export function Section({
  tone = 'paper',
  eyebrow,
  title,
  level = 2,
  intro,
  align = 'left',
  spacing = 'default',
  width = 'default',
  className,
  children,
  ...rest
}: SectionProps) {
  const titleId = useId();
  const Heading = level === 1 ? 'h1' : 'h2';
  const dark = tone === 'ink';
  return (
    <section aria-labelledby={title ? titleId : undefined} className={cx(tones[tone], spacings[spacing], className)} {...rest}>
      <div className={cx('mx-auto px-6 sm:px-8', widths[width])}>
        {(eyebrow || title || intro) && (
          <header className={cx('max-w-3xl', children != null && 'mb-12 sm:mb-16', align === 'center' && 'mx-auto text-center')}>
            {eyebrow && (
              <Eyebrow dark={dark} className={align === 'center' ? 'justify-center' : undefined}>
                {eyebrow}
              </Eyebrow>
            )}
            {title && (
              <Heading
                id={titleId}
                className={cx(
                  'font-serif text-balance',
                  level === 1 ? 'text-4xl sm:text-display' : 'text-3xl sm:text-title',
                  dark ? 'text-white' : 'text-ink',
                )}
              >
                {title}
              </Heading>
            )}
            {intro && <p className={cx('mt-5 text-lg leading-relaxed text-pretty', dark ? 'text-mist' : 'text-muted')}>{intro}</p>}
          </header>
        )}
        {children}
      </div>
    </section>
  );
}

/** The small uppercase label above a heading. */
export function Eyebrow({ children, dark = false, className }: { children: ReactNode; dark?: boolean; className?: string }) {
  return (
    <p
      className={cx(
        'mb-4 flex items-center gap-3 text-xs font-semibold tracking-[0.22em] uppercase',
        dark ? 'text-brass-light' : 'text-brass-deep',
        className,
      )}
    >
      <span aria-hidden="true" className={cx('h-px w-8', dark ? 'bg-brass-light' : 'bg-brass')} />
      {children}
    </p>
  );
}
