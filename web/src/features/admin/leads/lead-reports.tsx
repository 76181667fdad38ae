import type { SentEmail } from '#machines/protocol/admin/emails.js';

const LINK = 'font-semibold text-ink underline decoration-brass underline-offset-4 hover:decoration-2';

/** A diagnostic's PDF report, opened by the coach in a new tab (GET /api/admin/reports/:id.pdf). */
export function DiagnosticReportLink({ diagnosticId }: { diagnosticId: string }) {
  return (
    <a href={`/api/admin/reports/${encodeURIComponent(diagnosticId)}.pdf`} target="_blank" rel="noopener" className={LINK}>
      Open report<span className="sr-only"> (PDF, opens in a new tab)</span>
    </a>
  );
}

/** An email's attachments, each a link to the file rebuilt from its source (its name and size as sent). */
export function EmailAttachments({ email }: { email: SentEmail }) {
  if (email.attachments.length === 0) return null;
  return (
    <p className="mt-2 text-xs text-muted">
      Attached:{' '}
      {email.attachments.map((file, index) => (
        <span key={index}>
          {index > 0 && ', '}
          <a
            href={`/api/admin/emails/${encodeURIComponent(email.id)}/attachments/${index}`}
            target="_blank"
            rel="noopener"
            className={LINK}
          >
            {file.filename}
          </a>{' '}
          ({Math.max(1, Math.round(file.size / 1024))} KB)
        </span>
      ))}
    </p>
  );
}
