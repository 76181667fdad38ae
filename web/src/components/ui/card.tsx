import type { ElementType, HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx.js';

type CardTone = 'white' | 'sand' | 'ink';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** The element to render (article for self-contained content, li inside lists). */
  as?: ElementType;
  tone?: CardTone;
  /** A brass frame and a lifted shadow for the one card that should stand out. */
  featured?: boolean;
  /** Inner spacing; 'lg' for the main content cards. */
  padding?: 'md' | 'lg';
  children: ReactNode;
}

const tones: Record<CardTone, string> = {
  white: 'bg-white text-ink border-line',
  sand: 'bg-sand text-ink border-line',
  ink: 'bg-ink text-white border-ink-700',
};

/** A rounded surface for grouped content. */
export function Card({ as: Tag = 'div', tone = 'white', featured = false, padding = 'md', className, children, ...rest }: CardProps) {
  return (
    <Tag
      className={cx(
        'relative flex flex-col rounded-3xl border',
        tones[tone],
        padding === 'lg' ? 'p-7 sm:p-9' : 'p-6 sm:p-7',
        featured ? 'border-brass shadow-lift ring-1 ring-brass' : 'shadow-soft',
        className,
      )}
      {...rest}
    >
      {children}
    </Tag>
  );
}
