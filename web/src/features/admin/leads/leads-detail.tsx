import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useToast } from '#web/components/ui/index.js';
import { api } from '#web/lib/api.js';
import { useSession } from '#web/lib/session.js';
import { ScoreChart } from '#web/components/score-chart.js';
import { formatDateTime, useAdminFailure, useAdminResource } from '../api.js';
import { ConfirmDialog, DANGER_BUTTON } from '../confirm-dialog.js';
import { EmailsPanel, LeadJobsPanel, PaymentsPanel } from './lead-activity.js';
import { CaptureAttemptsPanel } from './lead-attempts.js';
import { DiagnosticAnswersPanel, SurveyPanel } from './lead-answers-panels.js';
import { NotesPanel } from './lead-notes.js';
import { Badge, Facts } from '../lead-parts.js';
import { ResultHistory, RulesFired } from './lead-rules.js';
import { FlowJourney } from './leads-journey.js';
import { leadDeletedSchema, leadDetailSchema } from '#machines/protocol/admin/leads.js';
import { SCORE_NAMES } from '#machines/grading/score-names.js';
import { paymentSchema } from '#machines/protocol/payment.js';
import { money, tierLabel, type LeadPayment } from './leads-api.js';
import { MirrorTranscript } from '../mirror-transcript.js';
import { UnmatchedBookingsPanel } from './unmatched-bookings.js';
import { EmptyState, ErrorState, Panel, RefreshButton, ScreenHeader, Skeleton } from '../states.js';

/** /admin/leads/:id: everything about one lead, its journey with a replay, notes, refund and delete. */
export function LeadDetailScreen() {
  const { id = '' } = useParams();
  const { data, loading, failed, reload, update } = useAdminResource(`/api/admin/leads/${encodeURIComponent(id)}`, leadDetailSchema);
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
      await api(`/api/admin/leads/${id}`, { method: 'DELETE', csrfToken: session.csrfToken, schema: leadDeletedSchema });
      toast({ title: 'Lead deleted', description: 'The lead and everything about it were removed.' });
      // nothing waits for the navigation: the router shows any failure itself
      void navigate('/admin/leads', { replace: true });
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
      await api(`/api/admin/payments/${refunding.id}/refund`, { method: 'POST', csrfToken: session.csrfToken, schema: paymentSchema });
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
      {/* Profile and notes on the left, the result beside them; on a phone the result follows the profile */}
      <div className="grid items-start gap-6 xl:grid-cols-2 xl:grid-rows-[auto_1fr]">
        <Panel title="Profile" id="lead-profile">
          <Facts
            items={[
              [
                'Email',
                <a href={`mailto:${lead.email}`} className="underline decoration-ink/20 underline-offset-2">
                  {lead.email}
                </a>,
              ],
              ['Name', lead.name],
              ['Source', <Badge>{lead.source}</Badge>],
              ...(lead.test ? ([['Test lead', <Badge>captured in testing mode</Badge>]] as Array<[string, ReactNode]>) : []),
              [
                'Attempts',
                lead.rushed_attempts > 0 ? `${lead.attempts} (${lead.rushed_attempts} rushed, asked to retake)` : String(lead.attempts),
              ],
              [
                'Tags',
                lead.tags.length ? (
                  <span className="flex flex-wrap gap-1">
                    {lead.tags.map((t) => (
                      <Badge key={t}>{t}</Badge>
                    ))}
                  </span>
                ) : (
                  '—'
                ),
              ],
              ['Created', formatDateTime(lead.created_at)],
              ['Updated', formatDateTime(lead.updated_at)],
              ['Lead id', <span className="font-mono text-sm">{lead.id}</span>],
            ]}
          />
        </Panel>
        <Panel title="Result" id="lead-result" className="xl:col-start-2 xl:row-span-2 xl:row-start-1">
          {!result ? (
            <EmptyState>Not graded yet</EmptyState>
          ) : (
            <div className="flex flex-col gap-5">
              <Facts
                items={[
                  ['Tier', <strong>{tierLabel(result.tier)}</strong>],
                  ['Archetype', result.archetype],
                  [SCORE_NAMES.leadership, `${result.leadership_score}`],
                  [
                    SCORE_NAMES.qualification,
                    `${result.qualification_score} (diagnostic ${result.diagnostic_score}, survey ${result.survey_score}, mirror ${result.mirror_score})`,
                  ],
                  ['Graded', formatDateTime(result.created_at)],
                  [
                    'Rules',
                    <Link to="/admin/grading" className="font-mono text-sm underline-offset-2 hover:underline">
                      {result.grading_version}
                    </Link>,
                  ],
                  ...(result.fallback ? ([['Fallback', <Badge>local assessment</Badge>]] as Array<[string, ReactNode]>) : []),
                ]}
              />
              <RulesFired rules={result.rulesFired} />
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
              <ResultHistory results={data.results} />
            </div>
          )}
        </Panel>
        <NotesPanel
          leadId={lead.id}
          notes={data.notes}
          onAdded={(note) => update((current) => ({ ...current, notes: [note, ...current.notes] }))}
        />
      </div>

      <div className="mt-6 flex flex-col gap-6">
        <SurveyPanel surveys={data.surveys} />
        <DiagnosticAnswersPanel diagnostics={data.diagnostics} />
        <Panel title="Mirror transcript" id="lead-mirror">
          {data.mirrorSessions.every((s) => s.messages.length === 0) ? (
            <EmptyState>No saved Mirror transcript</EmptyState>
          ) : (
            data.mirrorSessions
              .filter((s) => s.messages.length > 0)
              .map((s) => <MirrorTranscript key={s.id} messages={s.messages} label={`Mirror session of ${formatDateTime(s.created_at)}`} />)
          )}
        </Panel>
      </div>

      <div className="mt-6 grid items-start gap-6 xl:grid-cols-2">
        <div className="flex flex-col gap-6">
          <EmailsPanel emails={data.emails} />
          {data.captureAttempts.length > 0 && <CaptureAttemptsPanel attempts={data.captureAttempts} />}
        </div>
        <div className="flex flex-col gap-6">
          <PaymentsPanel lead={lead} payments={data.payments} onRefund={setRefunding} />
          <UnmatchedBookingsPanel leadId={lead.id} canAssign={lead.deposit === 'paid' && lead.booking !== 'booked'} onAssigned={reload} />
          <LeadJobsPanel jobs={data.jobs} onRetried={reload} />
        </div>
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

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this lead?"
        confirmLabel="Delete lead"
        busy={busy}
        // deleteLead() and refund() report their own failures
        onConfirm={() => void deleteLead()}
        onClose={() => setConfirmDelete(false)}
      >
        <p>
          This permanently deletes <strong className="break-all">{lead.email}</strong> and everything about them: results, answers, surveys,
          Mirror transcripts, payments, emails, jobs, notes and the journey. It cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={refunding !== null}
        title="Refund the deposit?"
        confirmLabel="Refund"
        busy={busy}
        onConfirm={() => void refund()}
        onClose={() => setRefunding(null)}
      >
        <p>{refunding && `${money(refunding.amount_cents, refunding.currency)} goes back to ${lead.email}.`}</p>
      </ConfirmDialog>
    </>
  );
}
