import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { gradingViewSchema, type GradingView } from '#machines/protocol/admin/grading.js';
import { Button } from '#web/components/ui/index.js';
import { useAdminResource } from '../api.js';
import { ApplyDialog, UndoDialog } from './dialogs.js';
import { HistoryList } from './history.js';
import { RulesInForce } from './in-force.js';
import { DryRunReport, type Staleness } from './report.js';
import { RulesFile } from './rules-file.js';
import { inputIdOf, RulesForm } from './rules-form.js';
import { checkDraft, draftOf, rulesKey, type Draft } from './rules-draft.js';
import { ANY_SCOPE, leadCount, ScopeFields, scopeInputId, scopeOf, scopeWords, type ScopeFieldValues } from './scope.js';
import { GRADING_PATH, useGradingActions, type Tried } from './use-grading-actions.js';
import { ErrorState, FormSkeleton, RefreshButton, ScreenHeader } from '../states.js';

const IN_FORCE_HEADING = 'grading-in-force';

function Section({ id, title, actions, children }: { id: string; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-6 rounded-3xl border border-line bg-white p-5 shadow-soft sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} tabIndex={-1} className="font-serif text-2xl tracking-tight text-ink focus:outline-none">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** Beside the Apply button: what it waits for, or, once enabled, the leads it re-grades (the try's scope and count). */
function applyHint(checked: boolean, edited: boolean, tried: Tried | null, stale: Staleness): ReactNode {
  if (!checked) return 'Fix the fields marked above first.';
  if (!edited) return 'These are the rules in force: change a number or upload a file to propose new ones.';
  if (!tried) return 'Try these rules on past leads first: Apply is enabled once you have seen what they change.';
  if (stale === 'rules') return 'You changed the rules since the last try: try them again before applying.';
  if (stale === 'scope') return 'You changed which leads to try them on since the last try: try again before applying.';
  return (
    <>
      Applies to the {leadCount(tried.report.considered)} this try considered:{' '}
      <strong className="font-semibold">{scopeWords(tried.scope)}</strong>. Leads outside it keep their results; new assessments are graded
      under these rules.
    </>
  );
}

/** What changed since the try shown, if anything: Apply follows a try only while its rules and scope are the ones on screen. */
function stalenessOf(tried: Tried | null, rulesKey: string | null, scopeKey: string | null): Staleness {
  if (!tried) return null;
  if (tried.rulesKey !== rulesKey) return 'rules';
  return JSON.stringify(tried.scope) === scopeKey ? null : 'scope';
}

function GradingEditor({ view, reload }: { view: GradingView; reload: () => void }) {
  const { inForce } = view;
  const [draft, setDraft] = useState(() => draftOf(inForce.rules));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [scopeFields, setScopeFields] = useState<ScopeFieldValues>(ANY_SCOPE);
  const [scopeErrors, setScopeErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState<Tried | null>(null);
  const [applying, setApplying] = useState(false);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [undoing, setUndoing] = useState<string | null>(null);
  /** The element to focus once the dialogs are closed (Headless UI gives focus back to the opener first). */
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  // rules newly in force (applied, undone, or read by Refresh) start the form again from them
  const shownKey = `${inForce.version}@${inForce.appliedAt?.getTime() ?? ''}`;
  const [shown, setShown] = useState(shownKey);
  if (shown !== shownKey) {
    setShown(shownKey);
    setDraft(draftOf(inForce.rules));
    setErrors({});
    setTried(null);
  }

  const checked = checkDraft(draft);
  const baseline = checkDraft(draftOf(inForce.rules));
  const currentKey = checked.ok ? rulesKey(checked.rules) : null;
  const edited = currentKey !== (baseline.ok ? rulesKey(baseline.rules) : rulesKey(inForce.rules));
  const scope = scopeOf(scopeFields);
  const stale = stalenessOf(tried, currentKey, scope.ok ? JSON.stringify(scope.scope) : null);
  const canApply = checked.ok && edited && tried !== null && stale === null;

  const showFields = (fields: Record<string, string>) => {
    const rules: Record<string, string> = {};
    const scoped: Record<string, string> = {};
    for (const [key, message] of Object.entries(fields)) {
      if (key.startsWith('rules.')) rules[key.slice('rules.'.length)] = message;
      else if (key.startsWith('scope.')) scoped[key] = message;
      else if (key === 'note') setNoteError(message);
    }
    setErrors(rules);
    setScopeErrors(scoped);
    const first = Object.keys(rules)[0] ?? Object.keys(scoped)[0];
    if (first) {
      setApplying(false);
      setFocusTarget(rules[first] ? inputIdOf(first) : scopeInputId(first));
    }
  };
  const actions = useGradingActions({ onChanged: reload, onFields: showFields });
  useEffect(() => {
    if (!focusTarget || applying || undoing !== null) return;
    const timer = window.setTimeout(() => {
      document.getElementById(focusTarget)?.focus();
      setFocusTarget(null);
    }, 0);
    return () => window.clearTimeout(timer);
  }, [focusTarget, applying, undoing]);

  const edit = (change: (current: Draft) => Draft, keys: string[]) => {
    setDraft(change);
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !keys.includes(key))));
  };
  const tryRules = (event: FormEvent) => {
    event.preventDefault();
    setErrors(checked.ok ? {} : checked.errors);
    setScopeErrors(scope.ok ? {} : scope.errors);
    if (!checked.ok) return document.getElementById(inputIdOf(Object.keys(checked.errors)[0]!))?.focus();
    if (!scope.ok) return document.getElementById(scopeInputId(Object.keys(scope.errors)[0]!))?.focus();
    actions.dryRun(checked.rules, scope.scope, currentKey!, (done) => {
      setTried(done);
      setFocusTarget('grading-report-heading');
    });
  };
  // the scope of the try shown, which Apply is enabled only while it is the scope on screen
  const apply = () => {
    if (!checked.ok || !tried) return;
    actions.apply(checked.rules, tried.scope, note, () => {
      setApplying(false);
      setNote('');
      setFocusTarget(IN_FORCE_HEADING);
    });
  };
  const undo = () =>
    actions.undo(() => {
      setUndoing(null);
      setFocusTarget(IN_FORCE_HEADING);
    });

  return (
    <>
      <Section id={IN_FORCE_HEADING} title="Rules in force">
        <RulesInForce view={view} />
      </Section>
      <form method="post" noValidate onSubmit={tryRules} aria-label="Proposed grading rules">
        <Section id="grading-propose" title="Propose new rules">
          <p className="mb-4 text-muted">Start from the rules in force: change the numbers, or upload a rules file.</p>
          <div className="mb-5">
            <RulesFile
              rules={checked.ok ? checked.rules : null}
              fileName={edited ? 'grading-rules-proposed.json' : `grading-rules-${inForce.version}.json`}
              onLoad={(rules) => edit(() => draftOf(rules), Object.keys(errors))}
            />
          </div>
          <RulesForm
            draft={draft}
            errors={errors}
            onNumber={(key, value) => edit((d) => ({ ...d, numbers: { ...d.numbers, [key]: value } }), [key, key.split('.')[0]!])}
            onSwitch={(key, on) => edit((d) => ({ ...d, switches: { ...d.switches, [key]: on } }), [])}
          />
        </Section>
        <Section id="grading-try" title="Try on past leads">
          <p className="mb-4 text-muted">See which leads these rules would move, and between which tiers. Nothing is changed.</p>
          <ScopeFields
            scope={scopeFields}
            errors={scopeErrors}
            onChange={(change) => {
              setScopeFields((current) => ({ ...current, ...change }));
              setScopeErrors({});
            }}
          />
          <div className="mt-5 mb-6">
            <Button type="submit" loading={actions.busy === 'dry-run'} loadingText="Trying...">
              Try on past leads
            </Button>
          </div>
          {tried && <DryRunReport report={tried.report} scope={tried.scope} stale={stale} />}
          <div className="mt-6 flex flex-wrap items-center gap-4 border-t border-line pt-5">
            <Button type="button" disabled={!canApply} aria-describedby="grading-apply-hint" onClick={() => setApplying(true)}>
              Apply these rules
            </Button>
            <p id="grading-apply-hint" className="min-w-0 flex-1 basis-64 text-sm text-muted">
              {applyHint(checked.ok, edited, tried, stale)}
            </p>
          </div>
        </Section>
      </form>
      <Section
        id="grading-history"
        title="History"
        actions={
          view.undoTo && (
            <Button variant="secondary" size="sm" onClick={() => setUndoing(view.undoTo)}>
              Undo last change
            </Button>
          )
        }
      >
        {view.undoTo && <p className="mb-3 text-sm text-muted">Undo last change puts {view.undoTo} back in force.</p>}
        <HistoryList history={view.history} />
      </Section>
      <ApplyDialog
        open={applying}
        tried={tried}
        busy={actions.busy === 'apply'}
        note={note}
        noteError={noteError}
        onNote={(typed) => (setNote(typed), setNoteError(undefined))}
        onConfirm={apply}
        onClose={() => setApplying(false)}
      />
      <UndoDialog
        version={undoing}
        undone={view.history[0]}
        busy={actions.busy === 'undo'}
        onConfirm={undo}
        onClose={() => setUndoing(null)}
      />
    </>
  );
}

/** /admin/grading: the rules in force, a proposal tried on past leads before it is applied, and the history with Undo. */
export function GradingScreen() {
  const { data, loading, failed, reload } = useAdminResource(GRADING_PATH, gradingViewSchema);
  return (
    <>
      <title>Grading rules | Admin | Leadership Coaching</title>
      <ScreenHeader
        title="Grading rules"
        description="The numbers that turn a lead's answers into a total and a tier. Try a change on past leads, then apply it; any change can be undone."
        actions={<RefreshButton loading={loading} onClick={reload} />}
      />
      {failed && !data ? <ErrorState onRetry={reload} /> : !data ? <FormSkeleton /> : <GradingEditor view={data} reload={reload} />}
    </>
  );
}
