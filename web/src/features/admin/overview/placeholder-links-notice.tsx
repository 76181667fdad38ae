import { Link } from 'react-router-dom';
import { placeholderLinks, type SiteSettings } from '#machines/site-settings.js';
import { SOCIAL_PLATFORMS } from '#web/app/site.js';
import { cx } from '#web/components/ui/index.js';

/** A list in words: 'A', 'A and B', 'A, B and C'. */
const inWords = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * Shown while the community link or a social link still points at a platform's home page (what a
 * fresh install links to): visitors who follow it land on the platform, not on the coach, and the
 * site's structured data names no profile. Like the booking page's notice (booking-notice.tsx).
 */
export function PlaceholderLinksNotice({ settings, className }: { settings: SiteSettings; className?: string }) {
  const placeholders = placeholderLinks(settings);
  if (placeholders.length === 0) return null;
  const names = placeholders.map((id) => (id === 'communityUrl' ? 'the community page' : SOCIAL_PLATFORMS[id].label));
  return (
    <div
      role="status"
      data-notice="placeholder-links"
      className={cx('flex gap-3 rounded-3xl border border-brass/50 bg-brass-light/20 p-5 text-ink', className)}
    >
      <svg viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0 text-brass-deep" fill="currentColor" aria-hidden="true">
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.75 4h1.5v5.5h-1.5V6Zm.75 8.75a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z" />
      </svg>
      <p className="leading-relaxed">
        <strong className="font-semibold">Links not set:</strong> {inWords(names)} still {placeholders.length === 1 ? 'links' : 'link'} to
        the platform&apos;s home page, not to yours.{' '}
        <Link to="/admin/settings" className="font-semibold underline decoration-ink/30 underline-offset-4 hover:decoration-ink">
          Set them in Site settings
        </Link>
        .
      </p>
    </div>
  );
}
