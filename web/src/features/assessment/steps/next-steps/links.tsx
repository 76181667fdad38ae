import { Button, cx } from '#web/components/ui/index.js';

/** A link that opens in a new tab (checkout, booking, community), styled as a button. */
export function OutLink({
  href,
  onClick,
  children,
  variant = 'primary',
}: {
  href: string;
  onClick?: () => void;
  children: string;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onClick}
      className={cx(
        'inline-flex min-h-13 items-center justify-center gap-2 rounded-full px-7 text-base font-semibold tracking-tight transition-colors',
        variant === 'primary'
          ? 'bg-ink text-white shadow-soft hover:bg-ink-800'
          : 'border border-ink/25 bg-white/60 text-ink hover:border-ink/50 hover:bg-white',
      )}
    >
      {children}
      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
        <path d="M11 3a1 1 0 1 0 0 2h2.59l-6.3 6.29a1 1 0 1 0 1.42 1.42L15 6.41V9a1 1 0 1 0 2 0V4a1 1 0 0 0-1-1h-5Z" />
        <path d="M5 5a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-3a1 1 0 1 0-2 0v3H5V7h3a1 1 0 0 0 0-2H5Z" />
      </svg>
      <span className="sr-only">(opens in a new tab)</span>
    </a>
  );
}

export function BackToResults({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="ghost" onClick={onBack}>
      Back to Results
    </Button>
  );
}

/** From where a path ended (deposit paid, homework sent, community joined): the results again. */
export function SeeResults({ onView }: { onView: () => void }) {
  return (
    <Button variant="ghost" onClick={onView}>
      See Your Results
    </Button>
  );
}
