import { Link } from 'react-router-dom';
import { cx } from '../../components/ui/index.js';

/** GET/PUT: the view of #machines/protocol/admin/site-settings.js. */
export const SITE_SETTINGS_PATH = '/api/admin/site-settings';

/**
 * Shown while the Integrations scheduling card has no booking page: visitors who pay the deposit
 * would otherwise be sent to the scheduling site's front page without the coach knowing.
 */
export function NoBookingPageNotice({ fallbackUrl, className }: { fallbackUrl: string; className?: string }) {
  return (
    <div
      role="status"
      data-notice="no-booking-page"
      className={cx('flex gap-3 rounded-3xl border border-brass/50 bg-brass-light/20 p-5 text-ink', className)}
    >
      <svg viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0 text-brass-deep" fill="currentColor" aria-hidden="true">
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.75 4h1.5v5.5h-1.5V6Zm.75 8.75a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z" />
      </svg>
      <p className="leading-relaxed">
        <strong className="font-semibold">No booking page set:</strong> visitors who pay the deposit are sent to a generic scheduling site (
        {new URL(fallbackUrl).host}).{' '}
        <Link to="/admin/integrations" className="font-semibold underline decoration-ink/30 underline-offset-4 hover:decoration-ink">
          Set it in Integrations
        </Link>
        .
      </p>
    </div>
  );
}
