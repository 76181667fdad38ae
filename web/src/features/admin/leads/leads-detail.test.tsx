// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { leadNoteSchema } from '#machines/protocol/admin/leads.js';
import { LeadDetailScreen } from './leads-detail.js';
import { CSRF, leadDetail, leadFacts, mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from '../test-kit.js';

installAdminTestKit();

const leadId = uuid(1);
const detail = leadDetail(
  leadFacts({ id: leadId, tier: 'homework', archetype: 'The Architect', qualification_score: 64, leadership_score: 61, attempts: 1 }),
);
const note: z.input<typeof leadNoteSchema> = {
  id: uuid(9),
  lead_id: leadId,
  author_id: uuid(100),
  author_email: 'coach@example.com',
  body: 'Call her on Monday',
  created_at: '2026-01-31T08:00:00.000Z',
};

const path = `/admin/leads/${leadId}`;

describe('Lead detail', () => {
  it("shows the lead's name and email", async () => {
    mockAdminApi(on('GET', `/api/admin/leads/${leadId}`, { body: detail }));
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getAllByText('ada@example.com').length).toBeGreaterThan(0);
  });

  it("says where the deposit's session stands: booked, cancelled, not booked, or refunded and still booked with what to do", async () => {
    const payments = [
      {
        id: uuid(51),
        purpose: 'deposit',
        amount_cents: 25_000,
        currency: 'usd',
        status: 'succeeded',
        test_mode: false,
        payment_intent_id: 'pi_1',
        refunded_at: null,
        created_at: '2026-01-30T09:00:00.000Z',
      },
    ];
    const paid = { deposit: 'paid', deposit_cents: 25_000, deposit_paid_at: '2026-01-30T09:00:00.000Z' } as const;
    const cases = [
      [
        { ...paid, booking: 'booked', session_provider: 'calcom', session_starts_at: '2026-02-03T15:00:00.000Z' },
        /^Session booked for .+ via Cal\.com$/,
      ],
      [
        { ...paid, booking: 'opened', session_canceled: true, session_canceled_by: 'coach', session_provider: 'calendly' },
        /^Session cancelled by you via Calendly; not rebooked$/,
      ],
      [{ ...paid, reminded_to_book: true }, /^No session booked yet \(reminded\)$/],
      [
        { ...paid, deposit: 'refunded', booking: 'booked', session_provider: 'calendly', session_starts_at: '2026-02-03T15:00:00.000Z' },
        /^Deposit refunded, but the session is still booked for .+ via Calendly: cancel it at Calendly$/,
      ],
    ] as const;
    for (const [facts, text] of cases) {
      mockAdminApi(on('GET', `/api/admin/leads/${leadId}`, { body: { ...detail, lead: { ...detail.lead, ...facts }, payments } }));
      const { unmount } = renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');
      expect(await screen.findByText(text)).toBeTruthy();
      unmount();
    }
  });

  it('adds a note with the CSRF token and lists it', async () => {
    const seen = mockAdminApi(
      on('GET', `/api/admin/leads/${leadId}`, { body: detail }),
      on('POST', `/api/admin/leads/${leadId}/notes`, { body: note }),
    );
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    await userEvent.type(await screen.findByRole('textbox', { name: /note/i }), 'Call her on Monday');
    await userEvent.click(screen.getByRole('button', { name: /add note/i }));

    expect(await screen.findByText('Call her on Monday', { selector: 'p' })).toBeTruthy();
    const post = seen.find((request) => request.method === 'POST')!;
    expect(post.headers['x-csrf-token']).toBe(CSRF);
    expect(post.body).toEqual({ body: 'Call her on Monday' });
  });

  it('shows the error state when the answer is not a lead', async () => {
    mockAdminApi(on('GET', `/api/admin/leads/${leadId}`, { body: { ...detail, lead: { ...detail.lead, created_at: 'yesterday' } } }));
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    expect(await screen.findByRole('group', { name: 'Error' })).toBeTruthy();
  });

  it('shows the error state on a 500, and Try again asks again', async () => {
    const seen = mockAdminApi(on('GET', `/api/admin/leads/${leadId}`, { status: 500, body: { message: 'boom' } }));
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    await userEvent.click(within(await screen.findByRole('group', { name: 'Error' })).getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(seen.length).toBe(2));
  });

  it('lists the rules that fired with their points, the rules version and every result', async () => {
    const graded = {
      id: uuid(20),
      tier: 'book_call',
      qualification: 'book_call',
      archetype: 'The Architect',
      leadership_score: 72.2,
      qualification_score: 67,
      diagnostic_score: 72.2,
      survey_score: 76,
      mirror_score: 50,
      fallback: false,
      scores: {},
      qualificationReasoning: ['Weighted total 67.'],
      rulesFired: [
        { rule: 'survey_part', label: 'Survey 76 × 0.35', points: 26.6 },
        { rule: 'validation_penalty', label: 'Seeks validation rather than challenge (q4)', points: -15 },
        { rule: 'tier', label: 'Tier book_call: total 67 is at least 65.', points: null },
      ],
      grading_version: 'grading-2',
      narrative: null,
      created_at: '2026-02-02T10:00:00.000Z',
    } as const;
    const results = [
      {
        id: uuid(20),
        tier: 'book_call',
        rushed: false,
        qualification_score: 67,
        grading_version: 'grading-2',
        regraded: true,
        created_at: '2026-02-02T10:00:00.000Z',
      },
      {
        id: uuid(21),
        tier: 'homework',
        rushed: false,
        qualification_score: 67,
        grading_version: 'grading-1.0.0',
        regraded: false,
        created_at: '2026-01-30T09:05:00.000Z',
      },
      {
        id: uuid(22),
        tier: null,
        rushed: true,
        qualification_score: 88,
        grading_version: 'grading-1.0.0',
        regraded: false,
        created_at: '2026-01-30T09:00:00.000Z',
      },
    ] as const;
    mockAdminApi(on('GET', `/api/admin/leads/${leadId}`, { body: { ...detail, result: graded, results: [...results] } }));
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual([
      'RulePoints',
      'Survey 76 × 0.35+26.6',
      'Seeks validation rather than challenge (q4)−15',
      'Tier book_call: total 67 is at least 65.—',
    ]);
    expect(screen.getByRole('link', { name: 'grading-2' }).getAttribute('href')).toBe('/admin/grading');
    const history = screen.getByRole('heading', { name: 'All results' }).nextElementSibling!;
    expect(within(history as HTMLElement).getAllByRole('listitem')).toHaveLength(3);
    expect(history.textContent).toContain('re-graded');
    expect(history.textContent).toContain('rushed: asked to retake');
    // both scores, each under its one name
    expect(screen.getByText('Leadership score')).toBeTruthy();
    expect(screen.getByText('67 (diagnostic 72.2, survey 76, mirror 50)')).toBeTruthy();
    expect(history.textContent).toContain('grading-1.0.0');
  });
});
