import { Field, Label, Switch } from '@headlessui/react';
import { useId, useMemo, useState } from 'react';
import { cx } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { adminContactSubmissionSchema, adminDataSchema, type ContactSubmission } from '#machines/protocol/admin/overview.js';
import { formatDateTime, useAdminFailure, useAdminResource } from '../api.js';
import { ContactEmails } from './contact-emails.js';
import { SearchIcon } from '../icons.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

const HANDLED_FAILURE = 'Failed to update the message. Please try again.';

function matches(message: ContactSubmission, query: string): boolean {
  if (!query) return true;
  const needle = query.toLowerCase();
  return [message.name, message.email, message.company ?? '', message.message].some((field) => field.toLowerCase().includes(needle));
}

function HandledSwitch({ message, onChange }: { message: ContactSubmission; onChange: (handled: boolean) => void }) {
  return (
    <Field className="flex items-center gap-3">
      <Label className="text-sm font-medium text-ink">
        Handled
        <span className="sr-only"> (message from {message.name})</span>
      </Label>
      <Switch
        checked={message.handled}
        onChange={onChange}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
          message.handled ? 'bg-success' : 'bg-ink/25',
        )}
      >
        <span
          className={cx(
            'inline-block size-4 rounded-full bg-white shadow transition-transform',
            message.handled ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </Switch>
    </Field>
  );
}

function MessageCard({ message, onHandled }: { message: ContactSubmission; onHandled: (handled: boolean) => void }) {
  return (
    <li
      data-message={message.id}
      className={cx('rounded-3xl border bg-white p-6 shadow-soft', message.handled ? 'border-line' : 'border-brass/60')}
    >
      <article aria-label={`Message from ${message.name}`}>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 className="font-serif text-xl tracking-tight text-ink">{message.name}</h2>
            <p className="mt-0.5 text-sm break-all text-muted">
              <a
                href={`mailto:${message.email}`}
                className="font-medium text-ink-700 underline decoration-ink/20 underline-offset-2 hover:decoration-ink"
              >
                {message.email}
              </a>
              {message.company && <span className="break-normal"> · {message.company}</span>}
            </p>
          </div>
          <div className="flex flex-col items-end gap-2">
            <time dateTime={message.created_at.toISOString()} className="text-xs text-muted">
              {formatDateTime(message.created_at)}
            </time>
            <HandledSwitch message={message} onChange={onHandled} />
          </div>
        </div>
        <p className="mt-4 leading-relaxed break-words whitespace-pre-wrap text-ink">{message.message}</p>
        <ContactEmails contactId={message.id} name={message.name} />
      </article>
    </li>
  );
}

/** /admin/messages: every contact submission in full, a search and the handled flag. */
export function MessagesScreen() {
  const { data, loading, failed, reload, update } = useAdminResource('/api/admin/data', adminDataSchema);
  const session = useSession();
  const fail = useAdminFailure();
  const [query, setQuery] = useState('');
  const searchId = useId();

  const messages = useMemo(() => data?.contactSubmissions ?? [], [data]);
  const shown = useMemo(() => messages.filter((message) => matches(message, query.trim())), [messages, query]);
  const open = messages.filter((message) => !message.handled).length;

  const setHandled = (id: string, handled: boolean) => {
    const apply = (value: boolean) =>
      update((current) => ({
        ...current,
        contactSubmissions: current.contactSubmissions.map((message) => (message.id === id ? { ...message, handled: value } : message)),
      }));
    apply(handled);
    api(`/api/admin/contact/${id}/handled`, {
      method: 'POST',
      body: { handled },
      csrfToken: session.csrfToken,
      schema: adminContactSubmissionSchema,
    }).then(
      (saved) =>
        update((current) => ({
          ...current,
          contactSubmissions: current.contactSubmissions.map((message) => (message.id === id ? { ...message, ...saved } : message)),
        })),
      (error: unknown) => {
        apply(!handled);
        fail(error, HANDLED_FAILURE);
      },
    );
  };

  return (
    <>
      <title>Messages | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Messages"
        description={
          data
            ? `${messages.length} ${messages.length === 1 ? 'message' : 'messages'}, ${open} not yet handled.`
            : 'Every message sent through the contact form.'
        }
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-4" aria-busy="true">
          {[0, 1, 2].map((n) => (
            <div key={n} className="flex flex-col gap-3 rounded-3xl border border-line bg-white p-6">
              <Skeleton className="h-6 w-48" />
              <Skeleton className="h-4 w-64" />
              <Skeleton className="h-4 w-full" />
            </div>
          ))}
        </div>
      ) : messages.length === 0 ? (
        <div className="rounded-3xl border border-line bg-white shadow-soft">
          <EmptyState>No messages received yet</EmptyState>
        </div>
      ) : (
        <>
          <search className="mb-6 block">
            <label htmlFor={searchId} className="mb-2 block text-sm font-semibold text-ink">
              Search messages
            </label>
            <div className="relative max-w-md">
              <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-muted" />
              <input
                id={searchId}
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                placeholder="Name, email, company or message"
                className="min-h-11 w-full rounded-full border border-line bg-white pr-4 pl-11 text-ink placeholder:text-muted/80 focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
              />
            </div>
          </search>
          <p className="sr-only" role="status" aria-live="polite">
            {query.trim() ? `${shown.length} of ${messages.length} messages match` : ''}
          </p>
          {shown.length === 0 ? (
            <div className="rounded-3xl border border-line bg-white shadow-soft">
              <EmptyState>No messages match “{query.trim()}”</EmptyState>
            </div>
          ) : (
            <ul className="flex flex-col gap-4" aria-label="Contact messages">
              {shown.map((message) => (
                <MessageCard key={message.id} message={message} onHandled={(handled) => setHandled(message.id, handled)} />
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}
