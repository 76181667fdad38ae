// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { leadPageSchema } from '#machines/protocol/admin/leads.js';
import { TIME_ZONE } from '../lead-scope.js';
import { LeadsScreen } from './leads.js';
import { leadFacts, mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from '../test-kit.js';

installAdminTestKit();

const page: z.input<typeof leadPageSchema> = {
  items: [
    leadFacts({
      id: uuid(1),
      tier: 'book_call',
      archetype: 'The Architect',
      leadership_score: 78,
      qualification_score: 82,
      attempts: 1,
      deposit: 'paid',
      booking: 'booked',
      tags: ['vip'],
    }),
    leadFacts({
      id: uuid(2),
      email: 'alan@example.com',
      name: 'Alan Turing',
      source: 'referral',
      created_at: '2026-01-29T09:00:00.000Z',
    }),
  ],
  total: 2,
  page: 1,
  pageSize: 25,
};

describe('Leads list', () => {
  it('shows a row per lead with its tier and a link to its page', async () => {
    mockAdminApi(on('GET', '/api/admin/leads', { body: page }));
    renderScreen(<LeadsScreen />, '/admin/leads');

    const ada = (await screen.findByText('ada@example.com')).closest('tr')!;
    expect(within(ada).getByText('Book call')).toBeTruthy();
    expect(within(ada).getByText('Deposit, booked')).toBeTruthy();
    expect(within(ada).getByText('78')).toBeTruthy();
    expect(within(ada).getByText('82')).toBeTruthy();
    expect(screen.getByText('alan@example.com')).toBeTruthy();
    expect(within(ada).getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe(`/admin/leads/${uuid(1)}`);
  });

  it('asks the server again with the search typed', async () => {
    const seen = mockAdminApi(on('GET', '/api/admin/leads', { body: page }));
    renderScreen(<LeadsScreen />, '/admin/leads');
    await screen.findByText('ada@example.com');

    await userEvent.type(screen.getByLabelText('Search leads'), 'ada');

    await waitFor(() => expect(seen.at(-1)?.url).toBe(`/api/admin/leads?tz=${encodeURIComponent(TIME_ZONE)}&q=ada&pageSize=25`));
  });

  it('shows the error state when the server fails, and Try again asks again', async () => {
    const seen = mockAdminApi(on('GET', '/api/admin/leads', { status: 500, body: { statusCode: 500, message: 'boom' } }));
    renderScreen(<LeadsScreen />, '/admin/leads');

    await userEvent.click(within(await screen.findByRole('group', { name: 'Error' })).getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(seen.filter((request) => request.url.startsWith('/api/admin/leads')).length).toBe(2));
  });
});
