// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { leadDetailSchema, leadNoteSchema } from '#machines/protocol/admin/leads.js';
import { LeadDetailScreen } from './leads-detail.js';
import { CSRF, mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from './test-kit.js';

installAdminTestKit();

const leadId = uuid(1);
const detail: z.input<typeof leadDetailSchema> = {
  lead: {
    id: leadId,
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    source: 'website',
    tier: 'homework',
    archetype: 'The Architect',
    total_score: 64,
    tags: [],
    created_at: '2026-01-30T09:00:00.000Z',
    updated_at: '2026-01-30T09:05:00.000Z',
  },
  result: null,
  results: [],
  diagnostics: [],
  surveys: [],
  mirrorSessions: [],
  payments: [],
  emails: [],
  jobs: [],
  notes: [],
  flows: [],
};
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
});
