import type { SentEmail } from '#machines/protocol/admin/emails.js';
import { cx } from '../../components/ui/index.js';
import { formatDateTime } from './api.js';
import { Badge, statusTone } from './lead-parts.js';
import { EmailAttachments } from './leads/lead-reports.js';
import { emailKindName } from './step-names.js';

/**
 * An email's body as its reader gets it in plain text: React escapes it, so nothing in it (a
 * visitor's message quoted back) can run or load anything here.
 */
export function EmailText({ subject, text }: { subject: string; text: string }) {
  return (
    <pre
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container needs a tab stop so the keyboard can scroll it (axe: scrollable-region-focusable)
      tabIndex={0}
      aria-label={`The email ${subject}`}
      className={cx(
        // anywhere, not break-word: a report link is one long word, and break-word still widens the card to it
        'mt-2 max-h-96 overflow-auto rounded-lg bg-sand p-3 font-sans text-sm wrap-anywhere whitespace-pre-wrap text-ink',
        'focus:outline-2 focus:outline-brass',
      )}
    >
      {text}
    </pre>
  );
}

/** Emails as a lead or contact got them: subject, status, kind, address and time, each readable in full. */
export function SentEmailList({ emails }: { emails: SentEmail[] }) {
  return (
    <ul className="flex flex-col gap-3">
      {emails.map((e) => (
        <li key={e.id} data-email={e.kind} className="rounded-xl border border-line p-3">
          <p className="font-semibold break-words text-ink">
            {e.subject} <Badge tone={statusTone(e.status)}>{e.status}</Badge>
          </p>
          <p className="text-xs break-words text-muted">
            {emailKindName(e.kind)} · to {e.to_address} · {formatDateTime(e.sent_at ?? e.created_at)}
          </p>
          {e.error && <p className={cx('mt-1 text-sm break-words', e.status === 'skipped' ? 'text-muted' : 'text-danger')}>{e.error}</p>}
          <details className="mt-2 text-sm">
            <summary className="w-fit cursor-pointer font-semibold text-ink">Read the email</summary>
            <EmailText subject={e.subject} text={e.text_body} />
            <EmailAttachments email={e} />
          </details>
        </li>
      ))}
    </ul>
  );
}
