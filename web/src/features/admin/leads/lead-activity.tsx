import { useState } from 'react';
import { adminJobSchema } from '#machines/protocol/admin/jobs.js';
import { Button, useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { formatDateTime, useAdminFailure } from '../api.js';
import { RETRY_FAILURE } from '../jobs/use-job-actions.js';
import { Badge, statusTone, TechnicalDetails } from '../lead-parts.js';
import type { LeadFacts } from '#machines/protocol/admin/lead-facts.js';
import { money, type LeadEmail, type LeadJob, type LeadPayment } from './leads-api.js';
import { SentEmailList } from '../email-text.js';
import { EmptyState, Panel } from '../states.js';
import { jobName } from '../step-names.js';

const PROVIDERS: Record<string, string> = { calendly: 'Calendly', calcom: 'Cal.com' };

/**
 * The deposit's strategy session in words, from the lead's facts: booked (and when), cancelled (by
 * whom), or not yet booked; and, when the deposit was refunded while the session stays booked, what
 * the coach still has to do (a refund cancels nothing at the scheduler).
 */
function sessionText(lead: LeadFacts): { text: string; tone: 'success' | 'warning' | 'muted' } {
  const provider = lead.session_provider ? (PROVIDERS[lead.session_provider] ?? lead.session_provider) : null;
  const via = provider ? ` via ${provider}` : '';
  const when = lead.session_starts_at ? ` for ${formatDateTime(lead.session_starts_at)}` : '';
  if (lead.booking === 'booked' && lead.deposit === 'refunded') {
    return {
      text: `Deposit refunded, but the session is still booked${when}${via}: cancel it at ${provider ?? 'your scheduler'}`,
      tone: 'warning',
    };
  }
  if (lead.booking === 'booked') return { text: `Session booked${when}${via}`, tone: 'success' };
  if (lead.session_canceled) {
    const by = lead.session_canceled_by === 'coach' ? ' by you' : lead.session_canceled_by === 'lead' ? ' by the lead' : '';
    return { text: `Session cancelled${by}${via}; not rebooked`, tone: 'warning' };
  }
  if (lead.deposit === 'refunded') return { text: 'Deposit refunded; no session booked', tone: 'muted' };
  const opened = lead.booking === 'opened' ? 'Opened the booking page, no session booked yet' : 'No session booked yet';
  return { text: `${opened}${lead.reminded_to_book ? ' (reminded)' : ''}`, tone: lead.reminded_to_book ? 'warning' : 'muted' };
}

function SessionLine({ lead }: { lead: LeadFacts }) {
  const { text, tone } = sessionText(lead);
  const color = tone === 'success' ? 'text-success' : tone === 'warning' ? 'text-danger' : 'text-muted';
  return (
    <p className={`text-sm font-medium ${color}`} data-session={lead.booking}>
      {text}
    </p>
  );
}

/** The lead's payments and, once a deposit went through, where its session stands; a succeeded deposit can be refunded (the screen confirms first). */
export function PaymentsPanel({
  lead,
  payments,
  onRefund,
}: {
  lead: LeadFacts;
  payments: LeadPayment[];
  onRefund: (payment: LeadPayment) => void;
}) {
  return (
    <Panel title="Payments" id="lead-payments">
      {payments.length === 0 ? (
        <EmptyState>No payments</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {lead.deposit !== 'none' && (
            <li>
              <SessionLine lead={lead} />
            </li>
          )}
          {payments.map((p) => (
            <li
              key={p.id}
              data-payment={p.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3"
            >
              <div className="min-w-0">
                <p className="font-semibold text-ink">
                  {money(p.amount_cents, p.currency)} {p.purpose === 'deposit' ? 'deposit' : 'paid homework'}{' '}
                  <Badge tone={statusTone(p.status)}>{p.status}</Badge>
                  {p.test_mode && (
                    <span className="ml-1">
                      <Badge>test</Badge>
                    </span>
                  )}
                </p>
                <p className="text-xs text-muted">
                  {formatDateTime(p.created_at)}
                  {p.refunded_at && ` · refunded ${formatDateTime(p.refunded_at)}`}
                </p>
              </div>
              {p.purpose === 'deposit' && p.status === 'succeeded' && (
                <Button size="sm" variant="secondary" onClick={() => onRefund(p)}>
                  Refund
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** The emails the lead was sent, each named by its kind and readable as they received it. */
export function EmailsPanel({ emails }: { emails: LeadEmail[] }) {
  return (
    <Panel title="Emails" id="lead-emails">
      {emails.length === 0 ? <EmptyState>No emails sent</EmptyState> : <SentEmailList emails={emails} />}
    </Panel>
  );
}

/** The lead's jobs in words with their state; a failed one can be run again (POST /api/admin/jobs/:id/retry). */
export function LeadJobsPanel({ jobs, onRetried }: { jobs: LeadJob[]; onRetried: () => void }) {
  const session = useSession();
  const fail = useAdminFailure();
  const { toast } = useToast();
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (job: LeadJob) => {
    setRetrying(job.id);
    try {
      await api(`/api/admin/jobs/${job.id}/retry`, { method: 'POST', csrfToken: session.csrfToken, schema: adminJobSchema });
      toast({ title: 'Job retried', description: `${jobName(job.queue, job.name)} will run again.`, variant: 'success' });
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
                <p className="min-w-0 font-semibold break-words text-ink">
                  {jobName(j.queue, j.name)} <Badge tone={statusTone(j.status)}>{j.status}</Badge>
                </p>
                {j.status === 'failed' && (
                  <Button size="sm" variant="secondary" onClick={() => void retry(j)} loading={retrying === j.id} loadingText="Retrying...">
                    Retry<span className="sr-only"> {jobName(j.queue, j.name)}</span>
                  </Button>
                )}
              </div>
              <p className="text-xs text-muted">
                Attempts {j.attempts} of {j.max_attempts} · {formatDateTime(j.created_at)}
              </p>
              {j.last_error && <p className="mt-1 text-sm break-words text-danger">{j.last_error}</p>}
              {j.skipped && <p className="mt-1 text-sm break-words text-muted">Nothing sent: {j.skipped}</p>}
              <TechnicalDetails
                items={[
                  ['Queue', j.queue],
                  ['Job', j.name],
                  ['Job id', j.id],
                ]}
              />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
