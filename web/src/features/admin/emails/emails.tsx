import { useState } from 'react';
import { Link } from 'react-router-dom';
import { emailCatalogSchema, testEmailResultSchema, type EmailPreview, type TestEmailResult } from '#machines/protocol/admin/emails.js';
import { Button, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { useAdminFailure, useAdminResource } from '../api.js';
import { EmailText } from '../email-text.js';
import { Badge } from '../lead-parts.js';
import { ErrorState, FormSkeleton, RefreshButton, ScreenHeader } from '../states.js';

const AUDIENCES: Record<EmailPreview['audience'], string> = { lead: 'To a lead', contact: 'To a visitor who wrote', coach: 'To you' };

/** What a test send did, in the coach's words. */
function testOutcome(result: TestEmailResult): { title: string; description: string; variant: 'success' | 'destructive' } {
  switch (result.status) {
    case 'sent':
      return { title: 'Test sent', description: `Sent to ${result.to}.`, variant: 'success' };
    case 'recorded':
      return {
        title: 'Test recorded',
        description: `No mail server is configured, so it was recorded for ${result.to} and not sent.`,
        variant: 'success',
      };
    case 'skipped':
    case 'failed':
      return { title: 'Test not sent', description: result.reason ?? 'It could not be sent.', variant: 'destructive' };
  }
}

function EmailCard({ preview, testRecipient }: { preview: EmailPreview; testRecipient: string }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [sending, setSending] = useState(false);
  const headingId = `email-${preview.id}`;

  const sendTest = () => {
    setSending(true);
    api(`/api/admin/emails/${preview.id}/test`, { method: 'POST', csrfToken: session.csrfToken, schema: testEmailResultSchema }).then(
      (result) => {
        setSending(false);
        toast(testOutcome(result));
      },
      (error: unknown) => {
        setSending(false);
        fail(error);
      },
    );
  };

  return (
    <li data-email-preview={preview.id}>
      <article aria-labelledby={headingId} className="rounded-3xl border border-line bg-white p-6 shadow-soft">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id={headingId} className="font-serif text-xl tracking-tight text-ink">
              {preview.name} <Badge>{AUDIENCES[preview.audience]}</Badge>
            </h2>
            <p className="mt-1 text-sm text-muted">{preview.when}</p>
            <p className="mt-2 text-sm break-words text-ink">
              <span className="font-semibold">Subject:</span> {preview.subject}
            </p>
          </div>
          <Button variant="secondary" size="sm" loading={sending} loadingText="Sending..." onClick={sendTest}>
            Send me a test
            <span className="sr-only">
              {' '}
              of {preview.name} to {testRecipient}
            </span>
          </Button>
        </div>
        <details className="mt-3 text-sm">
          <summary className="w-fit cursor-pointer font-semibold text-ink">Preview {preview.name}</summary>
          <EmailText subject={preview.subject} text={preview.text} />
        </details>
      </article>
    </li>
  );
}

/** /admin/emails: every email the site sends, previewed for a sample lead, each with a test to the coach's own inbox. */
export function EmailsScreen() {
  const { data, loading, failed, reload } = useAdminResource('/api/admin/emails', emailCatalogSchema);
  return (
    <>
      <title>Emails | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Emails"
        description={
          <>
            Every email the site sends, as a sample lead (Alex Morgan) would get it today, drawn by the same templates as the real ones. A
            test goes to your own address{data ? ` (${data.testRecipient})` : ''}, never to a lead. The reminders&rsquo; timing and on/off
            are in{' '}
            <Link to="/admin/settings" className="font-semibold underline decoration-ink/25 underline-offset-4 hover:decoration-ink">
              Site settings
            </Link>
            .
          </>
        }
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <FormSkeleton />
      ) : (
        <ul className="flex flex-col gap-4">
          {data.previews.map((preview) => (
            <EmailCard key={preview.id} preview={preview} testRecipient={data.testRecipient} />
          ))}
        </ul>
      )}
    </>
  );
}
