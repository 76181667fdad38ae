// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { overviewDropoffSchema } from '#machines/protocol/admin/dropoff.js';
import type { LeadScopeQuery } from '#machines/protocol/admin/scope.js';
import { useAdminResource } from '../api.js';
import { DropoffSection } from './dropoff.js';
import { mockAdminApi, on, renderScreen, installAdminTestKit } from '../test-kit.js';

installAdminTestKit();

/** The section as the Overview feeds it: its resource for the period and time zone. */
function Section({ period, tz }: Pick<LeadScopeQuery, 'period' | 'tz'>) {
  const resource = useAdminResource(`/api/admin/overview/dropoff?period=${period}&tz=${encodeURIComponent(tz)}`, overviewDropoffSchema);
  return <DropoffSection resource={resource} />;
}

const step = (name: string, reached: number, stopped: number, end = false) => ({ step: name, reached, stopped, end });

const dropoff: z.input<typeof overviewDropoffSchema> = {
  period: '7d',
  timeZone: 'Europe/Paris',
  includeTest: false,
  from: '2026-01-25',
  to: '2026-01-31',
  assessment: {
    started: 10,
    captured: 9,
    steps: [
      step('capture', 9, 1),
      step('survey', 9, 1),
      step('yes_flow', 3, 1),
      step('payment_success.booked', 1, 0, true),
      step('maybe_flow', 0, 0),
    ],
  },
  diagnostic: {
    started: 6,
    steps: [step('b1', 6, 1), step('interstitial', 4, 1), step('vig_dc', 3, 1)],
  },
};

/** The cells of a step's row, header first: screen, reached, stopped here, drop-off. */
function rowOf(table: string, stepName: string): string[] {
  const row = within(screen.getByRole('table', { name: new RegExp(`^${table}`) }))
    .getAllByRole('row')
    .find((candidate) => candidate.getAttribute('data-step') === stepName)!;
  return [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
}

describe('Drop-off per screen', () => {
  it('asks for the period and time zone and shows each step with its reached, stopped and drop-off', async () => {
    const seen = mockAdminApi(on('GET', '/api/admin/overview/dropoff', { body: dropoff }));
    renderScreen(<Section period="7d" tz="Europe/Paris" />, '/admin');

    expect(await screen.findByRole('table', { name: 'Assessment · 10 started · 9 captured as leads' })).toBeTruthy();
    expect(seen.map((request) => request.url)).toEqual(['/api/admin/overview/dropoff?period=7d&tz=Europe%2FParis']);
    expect(rowOf('Assessment', 'yes_flow')).toEqual(['Offered a strategy session (deposit)', '3', '1', '33.3%']);
    expect(rowOf('Assessment', 'capture')).toEqual(['Details form', '9', '1', '11.1%']);
    // an end is where journeys finish, not a drop-off; a step nobody reached has no share
    expect(rowOf('Assessment', 'payment_success.booked')).toEqual(['Booked the strategy session', '1', '—', 'Finished']);
    expect(rowOf('Assessment', 'maybe_flow')).toEqual(['Offered homework', '0', '0', '—']);
    // the survey is one form: the row says so
    expect(rowOf('Assessment', 'survey')[0]).toBe('Answering the qualification surveyAll 7 questions on one page, sent together');
  });

  it('names the diagnostic screens by number, kind and prompt, and the timed questions notice', async () => {
    mockAdminApi(on('GET', '/api/admin/overview/dropoff', { body: dropoff }));
    renderScreen(<Section period="7d" tz="Europe/Paris" />, '/admin');

    expect(await screen.findByRole('table', { name: 'Diagnostic · 6 started' })).toBeTruthy();
    const first = rowOf('Diagnostic', 'b1');
    expect(first[0]).toMatch(/^Screen 1: Rating a statementEveryone on my team could name/);
    expect(first.slice(1)).toEqual(['6', '1', '16.7%']);
    expect(rowOf('Diagnostic', 'interstitial')).toEqual(['Told the timed questions are next', '4', '1', '25%']);
    expect(rowOf('Diagnostic', 'vig_dc')[0]).toMatch(/^Screen 19: In a timed scenario/);
  });

  it('says so when nothing started in the period', async () => {
    mockAdminApi(
      on('GET', '/api/admin/overview/dropoff', {
        body: { ...dropoff, assessment: { started: 0, captured: 0, steps: [] }, diagnostic: { started: 0, steps: [] } },
      }),
    );
    renderScreen(<Section period="all" tz="UTC" />, '/admin');

    expect(await screen.findByText('No assessments or diagnostics started in this period')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the error state with a retry when the request fails', async () => {
    mockAdminApi(on('GET', '/api/admin/overview/dropoff', { status: 500, body: { message: 'boom' } }));
    renderScreen(<Section period="30d" tz="UTC" />, '/admin');

    const error = await screen.findByRole('group', { name: 'Error' });
    expect(within(error).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Drop-off per screen' })).toBeTruthy();
  });
});
