import { useState, type SyntheticEvent } from 'react';
import { z } from 'zod';
import { sentEmailSchema, type SentEmail } from '#machines/protocol/admin/emails.js';
import { api } from '#web/lib/api.js';
import { useAdminFailure } from '../api.js';
import { SentEmailList } from '../email-text.js';
import { EmptyState, Skeleton } from '../states.js';

const contactEmailsSchema = z.array(sentEmailSchema);

/** A contact message's two emails (the visitor's confirmation, your notification), read when opened. */
export function ContactEmails({ contactId, name }: { contactId: string; name: string }) {
  const fail = useAdminFailure();
  const [emails, setEmails] = useState<SentEmail[] | null>(null);

  const load = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (!event.currentTarget.open || emails) return;
    api(`/api/admin/contact/${contactId}/emails`, { schema: contactEmailsSchema }).then(setEmails, (error: unknown) => fail(error));
  };

  return (
    <details className="mt-4 text-sm" onToggle={load}>
      <summary className="w-fit cursor-pointer font-semibold text-ink">
        Emails sent<span className="sr-only"> about the message from {name}</span>
      </summary>
      <div className="mt-2">
        {!emails ? (
          <Skeleton className="h-16" />
        ) : emails.length === 0 ? (
          <EmptyState>No emails sent</EmptyState>
        ) : (
          <SentEmailList emails={emails} />
        )}
      </div>
    </details>
  );
}
