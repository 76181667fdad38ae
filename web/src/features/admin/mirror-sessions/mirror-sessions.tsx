import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, cx } from '#web/components/ui/index.js';
import { mirrorPageSchema, type MirrorPage } from '#machines/protocol/admin/mirror-sessions.js';
import { formatDateTime, useAdminResource } from '../api.js';
import { Badge } from '../lead-parts.js';
import { IncludeTestSwitch, TIME_ZONE, useIncludeTest } from '../lead-scope.js';
import { MirrorTranscript } from '../mirror-transcript.js';
import { EmptyState, ErrorState, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

type MirrorSession = MirrorPage['sessions'][number];

const SHOWS = [
  { value: 'all', label: 'All sessions' },
  { value: 'saved', label: 'Saved only' },
] as const;
type Show = (typeof SHOWS)[number]['value'];

function SessionCard({ session }: { session: MirrorSession }) {
  const opening = session.messages.find((m) => m.role === 'user')?.content ?? '';
  return (
    <li data-mirror-session={session.id} className="rounded-3xl border border-line bg-white p-5 shadow-soft sm:p-6">
      <article aria-label={`Mirror session of ${formatDateTime(session.created_at)}`} className="flex flex-col gap-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            {session.lead ? (
              <Link
                to={`/admin/leads/${session.lead.id}`}
                className="font-semibold break-words text-ink underline decoration-ink/20 underline-offset-2 hover:decoration-ink"
              >
                {session.lead.name} <span className="font-normal text-muted">· {session.lead.email}</span>
              </Link>
            ) : (
              <p className="font-semibold text-ink">Anonymous visitor</p>
            )}
            <p className="text-xs text-muted">{formatDateTime(session.created_at)}</p>
          </div>
          <div className="flex flex-wrap gap-1.5">
            {session.saved && <Badge tone="good">Saved</Badge>}
            <Badge>{session.completed ? 'Completed' : `${session.turns} of 5 exchanges`}</Badge>
          </div>
        </div>
        {session.messages.length === 0 ? (
          <p className="text-sm text-muted">Not saved: the visitor did not keep this conversation, so only its length is recorded.</p>
        ) : (
          <>
            <blockquote className="border-l-2 border-brass pl-3 break-words text-ink">{opening}</blockquote>
            <details>
              <summary className="cursor-pointer text-sm font-semibold text-ink-700 hover:text-ink">Read the conversation</summary>
              <div className="mt-3">
                <MirrorTranscript messages={session.messages} label="Conversation" visitor={session.lead ? 'Lead' : 'Visitor'} />
              </div>
            </details>
          </>
        )}
      </article>
    </li>
  );
}

/**
 * /admin/mirror-sessions: the Decision Mirror conversations the Overview counts, newest first, each
 * with the lead it belongs to (linked to their page) and readable in full.
 */
export function MirrorSessionsScreen() {
  const [show, setShow] = useState<Show>('all');
  const [page, setPage] = useState(1);
  // the Overview's scope when opened from its counter: from a day, test sessions only when included
  const [params] = useSearchParams();
  const from = /^\d{4}-\d{2}-\d{2}$/.test(params.get('from') ?? '') ? params.get('from') : null;
  const [includeTest, setIncludeTest] = useIncludeTest();
  const scope = `${from ? `&from=${from}` : ''}&tz=${encodeURIComponent(TIME_ZONE)}&includeTest=${includeTest}`;
  const { data, loading, failed, reload } = useAdminResource(
    `/api/admin/mirror-sessions?show=${show}&page=${page}${scope}`,
    mirrorPageSchema,
  );
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <>
      <title>Mirror Sessions | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Mirror Sessions"
        description={`Conversations with the Decision Mirror, on its own page and inside the assessment. Saved ones are kept with their lead.${from ? ` Started from ${from} on.` : ''}`}
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      <div role="group" aria-label="Which sessions" className="mb-6 flex flex-wrap gap-2">
        {SHOWS.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            aria-pressed={show === value}
            onClick={() => {
              setShow(value);
              setPage(1);
            }}
            className={cx(
              'min-h-10 rounded-full border px-4 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass',
              show === value ? 'border-ink bg-ink text-white' : 'border-line bg-white text-ink hover:border-ink/40',
            )}
          >
            {label}
          </button>
        ))}
        <IncludeTestSwitch
          checked={includeTest}
          onChange={(on) => {
            setIncludeTest(on);
            setPage(1);
          }}
        />
      </div>
      {failed && !data ? (
        <ErrorState onRetry={reload} />
      ) : !data ? (
        <div className="flex flex-col gap-4" aria-busy="true">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-32 w-full rounded-3xl" />
          ))}
        </div>
      ) : data.sessions.length === 0 ? (
        <EmptyState>{show === 'saved' ? 'No saved Mirror sessions yet' : 'No Mirror sessions yet'}</EmptyState>
      ) : (
        <>
          <ul className="flex flex-col gap-4">
            {data.sessions.map((session) => (
              <SessionCard key={session.id} session={session} />
            ))}
          </ul>
          <nav aria-label="Pages" className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm text-muted">
            <p>
              Page {data.page} of {pages} · {data.total} {data.total === 1 ? 'session' : 'sessions'}
            </p>
            <div className="flex gap-2">
              <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((n) => n - 1)}>
                Previous
              </Button>
              <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((n) => n + 1)}>
                Next
              </Button>
            </div>
          </nav>
        </>
      )}
    </>
  );
}
