import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button, cx, useToast } from '../../components/ui';
import { api } from '../../lib/api';
import { useSession } from '../../lib/session';
import { ScoreChart } from '../assessment/score-chart';
import { formatDateTime, useAdminFailure, useAdminResource } from './api';
import { FlowJourney } from './leads-journey';
import { money, tierLabel, type LeadDetail, type LeadNote, type LeadPayment } from './leads-api';
import { EmptyState, ErrorState, Panel, RefreshButton, ScreenHeader, Skeleton } from './states';
import { ConfirmDialog, DANGER_BUTTON } from './confirm-dialog';
import { RETRY_FAILURE } from './jobs';

/** What each email is, as the coach would say it (email_outbox.kind). */
const EMAIL_KINDS: Record<string, string> = {
  results: 'Results',
  deposit_receipt: 'Deposit receipt',
  refund_confirmation: 'Refund confirmation',
  homework: 'Paid homework',
  free_resources: 'Free resources',
  contact_confirmation: 'Contact confirmation',
  contact_notification: 'Contact notification',
  sign_in_notice: 'Sign-in notice',
};

function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_minmax(0,1fr)]">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-sm font-semibold text-muted">{label}</dt>
          <dd className="min-w-0 break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Badge({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'good' | 'bad' }) {
  return (
    <span
      className={cx(
        'inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold',
        tone === 'good' ? 'bg-success/15 text-ink' : tone === 'bad' ? 'bg-danger-soft text-danger' : 'bg-sand text-ink',
      )}
    >
      {children}
    </span>
  );
}

const statusTone = (status: string) => (['succeeded', 'sent', 'completed', 'recorded'].includes(status) ? 'good' : ['failed'].includes(status) ? 'bad' : 'neutral');

function showValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(' › ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function NotesPanel({ leadId, notes, onAdded }: { leadId: string; notes: LeadNote[]; onAdded: (note: LeadNote) => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return;
    setBusy(true);
    try {
      const note = await api<LeadNote>(`/api/admin/leads/${leadId}/notes`, { method: 'POST', body: { body: body.trim() }, csrfToken: session.csrfToken });
      onAdded(note);
      setBody('');
      toast({ title: 'Note added' });
    } catch (error) {
      fail(error, 'Failed to add the note. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Notes" id="lead-notes">
      <form onSubmit={submit} className="mb-4 flex flex-col gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-ink">
          Add a note
        </label>
        <textarea
          id={id}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          rows={3}
          maxLength={5000}
          className="w-full rounded-xl border border-line p-3 text-ink focus:border-ink focus:outline-2 focus:outline-offset-1 focus:outline-brass"
        />
        <div>
          <Button type="submit" size="sm" loading={busy} disabled={!body.trim()}>
            Add note
          </Button>
        </div>
      </form>
      {notes.length === 0 ? (
        <EmptyState>No notes yet</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Notes">
          {notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-sand/50 p-3">
              <p className="break-words whitespace-pre-wrap text-ink">{note.body}</p>
              <p className="mt-1 text-xs text-muted">
                {note.author_email ?? 'Unknown author'} · <time dateTime={note.created_at}>{formatDateTime(note.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** The lead's jobs with their state; a failed one can be run again (POST /api/admin/jobs/:id/retry). */
function LeadJobsPanel({ jobs, onRetried }: { jobs: LeadDetail['jobs']; onRetried: () => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (job: LeadDetail['jobs'][number]) => {
    setRetrying(job.id);
    try {
      await api(`/api/admin/jobs/${job.id}/retry`, { method: 'POST', csrfToken: session.csrfToken });
      toast({ title: 'Job retried', description: `${job.name} on the ${job.queue} queue will run again.`, variant: 'success' });
    } catch (error) {
      fail(error, RETRY_FAILURE);
    } finally {
      setRetrying(null);
      onRetried();
    }
  };
  return (
    <Panel title="Jobs" id="lead-jobs">
      {jobs.length === 0 ? (
        <EmptyState>No jobs</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {jobs.map((j) => (
            <li key={j.id} data-job={j.id} className="rounded-xl border border-line p-3">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="font-semibold text-ink">
                  {j.queue} / {j.name} <Badge tone={statusTone(j.status)}>{j.status}</Badge>
                </p>
                {j.status === 'failed' && (
                  <Button size="sm" variant="secondary" onClick={() => void retry(j)} loading={retrying === j.id} loadingText="Retrying...">
                    Retry<span className="sr-only"> job {j.name}</span>
                  </Button>
                )}
              </div>
              <p className="text-xs text-muted">
                Attempts {j.attempts} of {j.max_attempts} · {formatDateTime(j.created_at)}
              </p>
              {j.last_error && <p className="mt-1 text-sm break-words text-danger">{j.last_error}</p>}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** /admin/leads/:id: everything about one lead, its journey with a replay, notes, refund and delete. */
export function LeadDetailScreen() {
  const { id = '' } = useParams();
  const { data, loading, failed, reload, update } = useAdminResource<LeadDetail>(`/api/admin/leads/${encodeURIComponent(id)}`);
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [refunding, setRefunding] = useState<LeadPayment | null>(null);
  const [busy, setBusy] = useState(false);

  const deleteLead = async () => {
    setBusy(true);
    try {
      await api(`/api/admin/leads/${id}`, { method: 'DELETE', csrfToken: session.csrfToken });
      toast({ title: 'Lead deleted', description: 'The lead and everything about it were removed.' });
      navigate('/admin/leads', { replace: true });
    } catch (error) {
      fail(error, 'Failed to delete the lead. Please try again.');
      setBusy(false);
      setConfirmDelete(false);
    }
  };

  const refund = async () => {
    if (!refunding) return;
    setBusy(true);
    try {
      await api(`/api/admin/payments/${refunding.id}/refund`, { method: 'POST', csrfToken: session.csrfToken });
      toast({ title: 'Deposit refunded' });
      reload();
    } catch (error) {
      fail(error, 'Failed to refund the deposit. Please try again.');
    } finally {
      setBusy(false);
      setRefunding(null);
    }
  };

  const back = (
    <Link to="/admin/leads" className="text-sm font-semibold text-ink underline decoration-ink/20 underline-offset-2 hover:decoration-ink">
      ← All leads
    </Link>
  );

  if (failed && !data) {
    return (
      <>
        <title>Lead | Admin | Leadership Coaching</title>
        <ScreenHeader title="Lead" actions={back} />
        <ErrorState onRetry={reload} />
      </>
    );
  }
  if (!data) {
    return (
      <div aria-busy="true" className="flex flex-col gap-4">
        <Skeleton className="h-10 w-72" />
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  const { lead, result } = data;
  return (
    <>
      <title>{`${lead.name} | Leads | Admin | Leadership Coaching`}</title>
      <ScreenHeader
        title={lead.name}
        description={lead.email}
        actions={
          <>
            {back}
            <RefreshButton loading={loading} onClick={reload} />
            <button type="button" className={DANGER_BUTTON} onClick={() => setConfirmDelete(true)}>
              Delete lead
            </button>
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title="Profile" id="lead-profile">
          <Facts
            items={[
              ['Email', <a href={`mailto:${lead.email}`} className="underline decoration-ink/20 underline-offset-2">{lead.email}</a>],
              ['Name', lead.name],
              ['Source', <Badge>{lead.source}</Badge>],
              ['Tags', lead.tags.length ? <span className="flex flex-wrap gap-1">{lead.tags.map((t) => <Badge key={t}>{t}</Badge>)}</span> : '—'],
              ['Created', formatDateTime(lead.created_at)],
              ['Updated', formatDateTime(lead.updated_at)],
              ['Lead id', <span className="font-mono text-sm">{lead.id}</span>],
            ]}
          />
        </Panel>
        <Panel title="Result" id="lead-result">
          {!result ? (
            <EmptyState>Not graded yet</EmptyState>
          ) : (
            <div className="flex flex-col gap-5">
              <Facts
                items={[
                  ['Tier', <strong>{tierLabel(result.tier)}</strong>],
                  ['Archetype', result.archetype],
                  ['Total score', `${result.total_score} (diagnostic ${result.diagnostic_score}, survey ${result.survey_score}, mirror ${result.mirror_score})`],
                  ['Graded', formatDateTime(result.created_at)],
                  ...(result.gaming_detected ? ([['Gaming', <Badge tone="bad">detected</Badge>]] as Array<[string, ReactNode]>) : []),
                  ...(result.fallback ? ([['Fallback', <Badge>local assessment</Badge>]] as Array<[string, ReactNode]>) : []),
                ]}
              />
              <div>
                <h3 className="mb-2 text-sm font-semibold text-muted">Qualification reasoning</h3>
                {result.qualificationReasoning.length ? (
                  <ul className="list-disc space-y-1 pl-5 text-ink">
                    {result.qualificationReasoning.map((reason, i) => (
                      <li key={i}>{reason}</li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-muted">None recorded.</p>
                )}
              </div>
              <ScoreChart scores={result.scores} />
            </div>
          )}
        </Panel>
      </div>

      <Panel title="Journey" id="lead-journey" className="mt-6">
        {data.flows.length === 0 ? (
          <EmptyState>No flows recorded for this lead</EmptyState>
        ) : (
          <div className="flex flex-col gap-4">
            {data.flows.map((flow) => (
              <FlowJourney key={flow.id} flow={flow} />
            ))}
          </div>
        )}
      </Panel>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Panel title="Diagnostic answers" id="lead-answers">
          {data.answers.length === 0 ? (
            <EmptyState>No diagnostic answers</EmptyState>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead>
                  <tr className="text-xs tracking-wider text-muted uppercase">
                    <th scope="col" className="py-2 pr-3">Item</th>
                    <th scope="col" className="px-3 py-2">Type</th>
                    <th scope="col" className="px-3 py-2">Answer</th>
                    <th scope="col" className="py-2 pl-3 text-right">Time</th>
                  </tr>
                </thead>
                <tbody>
                  {data.answers.map((answer) => (
                    <tr key={`${answer.diagnostic_id}-${answer.item_id}`} className="border-t border-line/70">
                      <td className="py-2 pr-3 font-mono">{answer.item_id}</td>
                      <td className="px-3 py-2">{answer.type}</td>
                      <td className="px-3 py-2 break-words">
                        {showValue(answer.value)}
                        {answer.confidence !== null && <span className="text-muted"> · confidence {answer.confidence}</span>}
                        {answer.timed_out && <span className="text-danger"> · timed out</span>}
                      </td>
                      <td className="py-2 pl-3 text-right tabular-nums">{(answer.response_ms / 1000).toFixed(1)} s</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Panel>
        <Panel title="Survey" id="lead-survey">
          {data.surveys.length === 0 ? (
            <EmptyState>No survey responses</EmptyState>
          ) : (
            <div className="flex flex-col gap-4">
              {data.surveys.map((survey) => (
                <div key={survey.id}>
                  <p className="mb-2 text-sm text-muted">
                    {formatDateTime(survey.created_at)}
                    {survey.survey_score !== null && ` · score ${survey.survey_score}`}
                  </p>
                  <Facts items={Object.entries(survey.answers).map(([key, value]) => [key, showValue(value)])} />
                </div>
              ))}
            </div>
          )}
        </Panel>
      </div>

      <Panel title="Mirror transcript" id="lead-mirror" className="mt-6">
        {data.mirrorSessions.every((s) => s.messages.length === 0) ? (
          <EmptyState>No saved Mirror transcript</EmptyState>
        ) : (
          data.mirrorSessions
            .filter((s) => s.messages.length > 0)
            .map((s) => (
              <ol key={s.id} className="flex flex-col gap-2" aria-label={`Mirror session of ${formatDateTime(s.created_at)}`}>
                {s.messages.map((m, i) => (
                  <li key={i} className={cx('max-w-[85%] rounded-2xl px-4 py-2', m.role === 'user' ? 'self-end bg-ink text-white' : 'self-start bg-sand text-ink')}>
                    <span className="sr-only">{m.role === 'user' ? 'Lead' : 'Mirror'}: </span>
                    {m.content}
                  </li>
                ))}
              </ol>
            ))
        )}
      </Panel>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Panel title="Payments" id="lead-payments">
          {data.payments.length === 0 ? (
            <EmptyState>No payments</EmptyState>
          ) : (
            <ul className="flex flex-col gap-3">
              {data.payments.map((p) => (
                <li key={p.id} data-payment={p.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3">
                  <div>
                    <p className="font-semibold text-ink">
                      {money(p.amount_cents, p.currency)} {p.purpose === 'deposit' ? 'deposit' : 'paid homework'} <Badge tone={statusTone(p.status)}>{p.status}</Badge>
                      {p.test_mode && <span className="ml-1"><Badge>test</Badge></span>}
                    </p>
                    <p className="text-xs text-muted">
                      {formatDateTime(p.created_at)}
                      {p.refunded_at && ` · refunded ${formatDateTime(p.refunded_at)}`}
                    </p>
                  </div>
                  {p.purpose === 'deposit' && p.status === 'succeeded' && (
                    <Button size="sm" variant="secondary" onClick={() => setRefunding(p)}>
                      Refund
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Emails" id="lead-emails">
          {data.emails.length === 0 ? (
            <EmptyState>No emails sent</EmptyState>
          ) : (
            <ul className="flex flex-col gap-3">
              {data.emails.map((e) => (
                <li key={e.id} className="rounded-xl border border-line p-3">
                  <p className="font-semibold break-words text-ink">
                    {e.subject} <Badge tone={statusTone(e.status)}>{e.status}</Badge>
                  </p>
                  <p className="text-xs text-muted">
                    {EMAIL_KINDS[e.kind] ?? e.kind} · to {e.to_address} · {formatDateTime(e.sent_at ?? e.created_at)}
                  </p>
                  {e.error && <p className="mt-1 text-sm text-danger">{e.error}</p>}
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer font-semibold text-ink">Read the email</summary>
                    <pre className="mt-2 max-h-96 overflow-auto rounded-lg bg-sand p-3 font-sans text-sm whitespace-pre-wrap break-words text-ink">{e.text_body}</pre>
                    {e.attachments.length > 0 && (
                      <p className="mt-2 text-xs text-muted">
                        Attached: {e.attachments.map((file) => `${file.filename} (${Math.max(1, Math.round(file.size / 1024))} KB)`).join(', ')}
                      </p>
                    )}
                  </details>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <LeadJobsPanel jobs={data.jobs} onRetried={reload} />
        <NotesPanel leadId={lead.id} notes={data.notes} onAdded={(note) => update((current) => ({ ...current, notes: [note, ...current.notes] }))} />
      </div>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this lead?"
        confirmLabel="Delete lead"
        busy={busy}
        onConfirm={deleteLead}
        onClose={() => setConfirmDelete(false)}
      >
        <p>
          This permanently deletes <strong className="break-all">{lead.email}</strong> and everything about them: results, answers, surveys, Mirror transcripts, payments, emails,
          jobs, notes and the journey. It cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog open={refunding !== null} title="Refund the deposit?" confirmLabel="Refund" busy={busy} onConfirm={refund} onClose={() => setRefunding(null)}>
        <p>{refunding && `${money(refunding.amount_cents, refunding.currency)} goes back to ${lead.email}.`}</p>
      </ConfirmDialog>
    </>
  );
}
