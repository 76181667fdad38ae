import type { ReactNode } from 'react';
import { BulletList, Button, buttonClasses } from '#web/components/ui/index.js';
import { TEST_LEAD_NO_EMAIL, unconfirmedAddressNotice } from '#machines/assessment-flow/assessment-flow.copy.js';
import { formatScore, SCORE_NAMES } from '#machines/grading/score-names.js';
import type { CompletedPath, FlowResult } from '#machines/protocol/assessment-flow.js';
import type { Tier } from '#machines/protocol/common.js';
import { ScoreChart } from '#web/components/score-chart.js';
import { NoticeBox, StepEyebrow } from '../ui.js';

/** The product's notice for results the browser graded itself. */
export const LOCAL_RESULTS_NOTICE = {
  title: 'Assessment Complete',
  description: 'Results calculated locally due to connectivity issues.',
} as const;

/** Each tier's next step as the results screen offers it. */
const NEXT_STEP: Record<Tier, { heading: string; body: string; action: string }> = {
  book_call: {
    heading: 'Your next step: a 45-minute strategy session',
    body: 'Your answers point to a leader ready for focused, one-to-one work. In a 45-minute strategy session we map what to change first and what it would take.',
    action: 'Book Your Strategy Session',
  },
  homework: {
    heading: 'Your next step: a focused homework plan',
    body: 'You have a clear picture of what to work on. A short, practical homework plan built on your results turns it into habits, with or without a coach.',
    action: 'See Your Options',
  },
  nurture: {
    heading: 'Your next step: free resources and community',
    body: 'Build momentum at your own pace with free resources, live Q&As and a community of leaders working on the same things.',
    action: 'Explore Free Resources',
  },
};

type NextStep = { eyebrow?: string; heading: string; body: string; action: string };

/** Where a visitor's path ended, as their results shown again tell it, with the way back there. */
function pathStep(path: CompletedPath, email: string | null, testing: boolean, unconfirmed: boolean): NextStep {
  const eyebrow = 'Where you are';
  switch (path.kind) {
    case 'deposit_paid':
      if (path.refunded) {
        return {
          eyebrow,
          heading: 'Your deposit was refunded',
          body:
            path.booking === 'booked'
              ? 'Your refundable deposit has been returned. Your strategy session stays in the calendar unless we cancel it with you.'
              : 'Your refundable deposit has been returned.',
          action: 'See Your Deposit',
        };
      }
      if (path.booking === 'booked') {
        return {
          eyebrow,
          heading: 'Your deposit is paid and your session is booked',
          body: 'Your refundable deposit is confirmed and your 45-minute strategy session is in the calendar. We look forward to meeting you.',
          action: 'See Your Booking',
        };
      }
      return path.booking === 'opened'
        ? {
            eyebrow,
            heading: 'Your deposit is paid and your booking page is open',
            body: 'Your refundable deposit is confirmed. If you have not chosen a time for your 45-minute strategy session yet, you can still do it.',
            action: 'See Your Booking',
          }
        : {
            eyebrow,
            heading: 'Your deposit is paid: choose a time for your session',
            body: 'Your refundable deposit is confirmed. One step is left: choose a time for your 45-minute strategy session.',
            action: 'Book Your Session',
          };
    case 'homework_sent':
      return {
        eyebrow,
        heading: path.source === 'paid_homework' ? 'Your homework plan was sent' : 'Your free resources were sent',
        body: testing
          ? TEST_LEAD_NO_EMAIL
          : unconfirmed
            ? `They go to ${email ?? 'your email address'} once you follow the link we sent there.`
            : `They went to ${email ?? 'your email address'}. Start with the guide for your archetype: it pairs with the three actions above.`,
        action: 'See What Was Sent',
      };
    case 'community_joined':
      return {
        eyebrow,
        heading: 'You joined the free community',
        body: 'Introduce yourself there and mention your archetype: you will find leaders working on the same things.',
        action: 'Back to the Community',
      };
  }
}

/**
 * The results (results and completed_results): archetype, narrative, the six dimension scores
 * as a chart, key insights, the archetype's three actions and the tier's next step (or, shown
 * again, where the visitor's path ended).
 */
function ResultsView({
  result,
  tier,
  localNotice,
  unconfirmedEmail,
  intro,
  next = NEXT_STEP[tier],
  actions,
}: {
  result: FlowResult;
  tier: Tier;
  /** Set when the browser graded the answers itself. */
  localNotice: boolean;
  /** Set (to the address, or null when unknown) while the address typed waits for its confirmation link. */
  unconfirmedEmail?: string | null | undefined;
  intro?: ReactNode;
  next?: NextStep;
  actions: ReactNode;
}) {
  const details = result.archetypeDetails;
  return (
    <div className="flex flex-col gap-8">
      {localNotice && <NoticeBox notice={LOCAL_RESULTS_NOTICE} tone="info" />}
      {unconfirmedEmail !== undefined && <NoticeBox notice={unconfirmedAddressNotice(unconfirmedEmail)} tone="info" />}
      {intro}
      {/* not a <header>: inside the dialog it would be a second banner landmark */}
      <div className="flex flex-col gap-3 rounded-3xl bg-ink p-6 text-white sm:p-8">
        <p className="text-xs font-semibold tracking-[0.18em] text-brass-light uppercase">Your leadership archetype</p>
        <h3 className="font-serif text-3xl leading-tight text-balance sm:text-4xl" data-testid="archetype">
          {result.archetype}
        </h3>
        {details?.tagline && <p className="text-lg text-mist">{details.tagline}</p>}
      </div>
      <section aria-labelledby="narrative-heading" className="flex flex-col gap-3">
        <h4 id="narrative-heading" className="sr-only">
          What this means
        </h4>
        <p className="text-base leading-relaxed text-pretty text-ink sm:text-lg">{result.narrative}</p>
      </section>
      <section aria-labelledby="scores-heading" className="flex flex-col gap-4 rounded-3xl border border-line bg-white p-5 sm:p-7">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h4 id="scores-heading" className="font-serif text-xl text-ink">
            Your six dimensions
          </h4>
          <p className="text-sm text-muted" data-testid="leadership-score">
            {SCORE_NAMES.leadership}: <strong className="font-semibold text-ink tabular-nums">{formatScore(result.compositeScore)}</strong>
          </p>
        </div>
        <ScoreChart scores={result.scores} />
      </section>
      {result.keyInsights.length > 0 && (
        <section aria-labelledby="insights-heading" className="flex flex-col gap-3">
          <h4 id="insights-heading" className="font-serif text-xl text-ink">
            Key insights
          </h4>
          <BulletList items={result.keyInsights} />
        </section>
      )}
      {details && (
        <section aria-labelledby="actions-heading" className="flex flex-col gap-3">
          <h4 id="actions-heading" className="font-serif text-xl text-ink">
            Three actions for the next 30 days
          </h4>
          <ol className="flex flex-col gap-3">
            {details.actions.map((action, index) => (
              <li key={action} className="flex gap-4 rounded-2xl border border-line bg-white p-4">
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-sand font-serif text-brass-deep">
                  {index + 1}
                </span>
                <span className="text-[0.95rem] leading-relaxed text-ink">{action}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      <section aria-labelledby="next-heading" className="flex flex-col gap-4 rounded-3xl border border-brass/60 bg-sand p-6 sm:p-7">
        <StepEyebrow>{next.eyebrow ?? 'Recommended for you'}</StepEyebrow>
        <h4 id="next-heading" className="font-serif text-2xl leading-snug text-ink">
          {next.heading}
        </h4>
        <p className="text-[0.95rem] leading-relaxed text-muted">{next.body}</p>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">{actions}</div>
      </section>
    </div>
  );
}

/** The flow's PDF report in a new tab, as the results page offers it (GET /api/flows/:id/report.pdf). */
function DownloadReport({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
      Download Report
      <span className="sr-only"> (PDF, opens in a new tab)</span>
    </a>
  );
}

/** Where a flow's report opens. */
export const flowReportUrl = (flowId: string) => `/api/flows/${encodeURIComponent(flowId)}/report.pdf`;

/** results ('Your Results'). */
export function ResultsStep({
  result,
  tier,
  localNotice,
  held,
  report,
  unconfirmedEmail,
  onContinue,
}: {
  result: FlowResult;
  tier: Tier;
  localNotice: boolean;
  unconfirmedEmail?: string | null | undefined;
  /** A locally graded result shown while the server catches up: the next steps need the server. */
  held: boolean;
  /** The report's URL; null while there is none (a result graded in the browser is not stored). */
  report: string | null;
  onContinue: () => void;
}) {
  return (
    <ResultsView
      result={result}
      tier={tier}
      localNotice={localNotice}
      unconfirmedEmail={unconfirmedEmail}
      actions={
        <>
          <Button size="lg" onClick={onContinue} disabled={held}>
            {NEXT_STEP[tier].action}
          </Button>
          {report && <DownloadReport href={report} />}
          {held && <p className="text-sm text-muted">Your next step opens as soon as we are reconnected.</p>}
        </>
      }
    />
  );
}

/**
 * completed_results ('Welcome Back'): the visitor's completed assessment, shown again with where
 * their path ended (or the tier's next step when they had not chosen one) and a retake.
 */
export function CompletedResultsStep({
  result,
  tier,
  path,
  email,
  testing,
  unconfirmed,
  report,
  onContinue,
  onRetake,
}: {
  result: FlowResult;
  tier: Tier;
  path: CompletedPath | null;
  email: string | null;
  testing: boolean;
  /** The address typed waits for its confirmation link (decision 0044). */
  unconfirmed: boolean;
  report: string | null;
  onContinue: () => void;
  onRetake: () => void;
}) {
  const next = path ? pathStep(path, email, testing, unconfirmed) : NEXT_STEP[tier];
  return (
    <ResultsView
      result={result}
      tier={tier}
      next={next}
      localNotice={false}
      unconfirmedEmail={unconfirmed ? email : undefined}
      intro={
        <p className="text-base leading-relaxed text-muted">
          These are the results of the assessment you completed. Leaders usually retake it after 6 to 12 months, to see what has changed.
        </p>
      }
      actions={
        <>
          <Button size="lg" onClick={onContinue}>
            {next.action}
          </Button>
          {report && <DownloadReport href={report} />}
          <Button size="lg" variant="secondary" onClick={onRetake}>
            Retake Assessment
          </Button>
        </>
      }
    />
  );
}
