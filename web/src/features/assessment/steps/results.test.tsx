// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resultTier } from '#machines/assessment-flow/assessment-flow.guards.js';
import { DISPLAY_DIMENSIONS, DisplayDimension } from '#machines/content/index.js';
import { formatScore } from '#machines/grading/score-names.js';
import type { Tier } from '#machines/protocol/common.js';
import { flowAtResults } from '../live/flow.fixtures.js';
import { topStep } from '../titles.js';
import { CompletedResultsStep, LOCAL_RESULTS_NOTICE, ResultsStep } from './results.js';
import { unconfirmedAddressNotice } from '#machines/assessment-flow/assessment-flow.copy.js';

afterEach(cleanup);

/** The results screen for the flow's snapshot at `results`, as the modal renders it. */
function renderResults(
  tier: Tier,
  { held = false, localNotice = false, report = null as string | null, unconfirmedEmail = undefined as string | undefined } = {},
) {
  const { actor } = flowAtResults(tier);
  const { value, context } = actor.getSnapshot();
  expect(value).toBe('results');
  const result = context.result!;
  const onContinue = vi.fn(() => actor.send({ type: 'CONTINUE' }));
  render(
    <ResultsStep
      result={result}
      tier={resultTier(result)}
      localNotice={localNotice}
      held={held}
      report={report}
      unconfirmedEmail={unconfirmedEmail}
      onContinue={onContinue}
    />,
  );
  return { actor, result, onContinue };
}

const NEXT_STEPS: Array<[Tier, string, string, string]> = [
  ['book_call', 'Your next step: a 45-minute strategy session', 'Book Your Strategy Session', 'yes_flow'],
  ['homework', 'Your next step: a focused homework plan', 'See Your Options', 'maybe_flow'],
  ['nurture', 'Your next step: free resources and community', 'Explore Free Resources', 'no_flow'],
];

describe('the results', () => {
  it('shows the archetype, its tagline and actions, and the six dimension scores', () => {
    const { result } = renderResults('book_call');
    expect(screen.getByRole('heading', { name: result.archetype })).toBeTruthy();
    expect(screen.getByText(result.archetypeDetails!.tagline)).toBeTruthy();
    expect(screen.getByText(result.narrative)).toBeTruthy();

    const scores = screen.getByRole('region', { name: 'Your six dimensions' });
    const rows = within(scores).getAllByRole('listitem');
    expect(rows).toHaveLength(6);
    DisplayDimension.options.forEach((dimension, index) => {
      expect(rows[index]!.textContent).toBe(`${dimension} ${DISPLAY_DIMENSIONS[dimension].label}${Math.round(result.scores[dimension]!)}`);
    });
    expect(within(scores).getByRole('img', { name: 'Radar chart of your six dimension scores, each out of 100' })).toBeTruthy();
    // the leadership score, named and written as in the email, the PDF and the admin
    expect(within(scores).getByTestId('leadership-score').textContent).toBe(`Leadership score: ${formatScore(result.compositeScore)}`);

    const actions = within(screen.getByRole('region', { name: 'Three actions for the next 30 days' })).getAllByRole('listitem');
    expect(actions.map((item) => item.textContent)).toEqual(result.archetypeDetails!.actions.map((action, i) => `${i + 1}${action}`));
  });

  it.each(NEXT_STEPS)('offers the %s tier its next step and continues to it', async (tier, heading, action, next) => {
    const user = userEvent.setup();
    const { actor, onContinue } = renderResults(tier);
    const section = screen.getByRole('region', { name: heading });
    expect(within(section).getByText('Recommended for you')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: action }));
    expect(onContinue).toHaveBeenCalledOnce();
    expect(topStep(actor.getSnapshot().value)).toBe(next);
  });

  it('offers the report as the results page does, a PDF in a new tab, and adds no banner landmark', () => {
    renderResults('book_call', { report: '/api/flows/f/report.pdf' });
    const download = screen.getByRole('link', { name: /^Download Report/ });
    expect(download.getAttribute('href')).toBe('/api/flows/f/report.pdf');
    expect(download.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('holds the next step while a locally graded result waits for the server', () => {
    renderResults('homework', { held: true, localNotice: true });
    expect(screen.getByRole('status').textContent).toContain(LOCAL_RESULTS_NOTICE.description);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'See Your Options' }).disabled).toBe(true);
    expect(screen.getByText('Your next step opens as soon as we are reconnected.')).toBeTruthy();
  });

  it('shows a returning visitor where their path ended, with a retake', async () => {
    const user = userEvent.setup();
    const { result } = renderResults('homework');
    cleanup();
    const onRetake = vi.fn();
    render(
      <CompletedResultsStep
        result={result}
        tier="homework"
        path={{ kind: 'homework_sent', source: 'free_resources' }}
        email="ada@example.com"
        testing={false}
        unconfirmed={false}
        report="/api/flows/f/report.pdf"
        onContinue={vi.fn()}
        onRetake={onRetake}
      />,
    );
    const section = screen.getByRole('region', { name: 'Your free resources were sent' });
    expect(within(section).getByText(/They went to ada@example\.com\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retake Assessment' }));
    expect(onRetake).toHaveBeenCalledOnce();
  });

  it('tells a visitor whose address waits for its confirmation link what was sent, and what will be (decision 0044)', () => {
    renderResults('book_call', { unconfirmedEmail: 'ada@example.com' });
    const notice = unconfirmedAddressNotice('ada@example.com');
    expect(screen.getByRole('status').textContent).toContain(notice.description);
    cleanup();
    const { result } = renderResults('homework');
    cleanup();
    render(
      <CompletedResultsStep
        result={result}
        tier="homework"
        path={{ kind: 'homework_sent', source: 'free_resources' }}
        email="ada@example.com"
        testing={false}
        unconfirmed
        report="/api/flows/f/report.pdf"
        onContinue={vi.fn()}
        onRetake={vi.fn()}
      />,
    );
    const section = screen.getByRole('region', { name: 'Your free resources were sent' });
    expect(within(section).getByText('They go to ada@example.com once you follow the link we sent there.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(notice.title);
  });
});
