// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { unmatchedBookingSchema } from '#machines/protocol/admin/bookings.js';
import { LeadDetailScreen } from './leads-detail.js';
import { CSRF, leadDetail, leadFacts, mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from '../test-kit.js';

installAdminTestKit();

const leadId = uuid(1);
const detail = (facts: Parameters<typeof leadFacts>[0]) => leadDetail(leadFacts({ id: leadId, name: 'Grace Hopper', ...facts }));
const booking = (n: number, fields: Partial<z.input<typeof unmatchedBookingSchema>> = {}): z.input<typeof unmatchedBookingSchema> => ({
  id: uuid(50 + n),
  provider: 'calendly',
  bookingKey: `https://api.calendly.com/scheduled_events/EV/invitees/${n}`,
  name: 'Grace Hopper',
  email: 'grace.personal@example.org',
  startsAt: '2026-12-07T16:00:00.000Z',
  receivedAt: '2026-12-01T09:00:00.000Z',
  resembles: true,
  ...fields,
});
const path = `/admin/leads/${leadId}`;
const listPath = `/api/admin/leads/${leadId}/unmatched-bookings`;

describe('Unmatched bookings on the lead page', () => {
  it('lists them and assigns one in one click, with the CSRF token, then shows the lead booked', async () => {
    let assigned = false;
    const seen = mockAdminApi(
      on('GET', `/api/admin/leads/${leadId}`, () => ({
        body: detail(assigned ? { deposit: 'paid', booking: 'booked' } : { deposit: 'paid', booking: 'none' }),
      })),
      on('GET', listPath, () => ({
        body: { items: assigned ? [] : [booking(1), booking(2, { name: 'Someone Else', resembles: false })] },
      })),
      on('POST', `/api/admin/bookings/${uuid(51)}/assign`, () => {
        assigned = true;
        return { body: { assigned: true, flowId: uuid(7) } };
      }),
    );
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');

    const panel = await screen.findByRole('region', { name: 'Unmatched bookings' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('matches this lead')).toBeTruthy();
    expect(within(items[0]!).getByText('grace.personal@example.org')).toBeTruthy();
    expect(within(items[1]!).queryByText('matches this lead')).toBeNull();

    await userEvent.click(within(items[0]!).getByRole('button', { name: 'Assign to this lead' }));
    const post = seen.find((request) => request.method === 'POST')!;
    expect(post.headers['x-csrf-token']).toBe(CSRF);
    expect(post.body).toEqual({ leadId });
    // both reloaded: the list is empty (the panel goes) and the lead's page reads booked
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unmatched bookings' })).toBeNull());
    expect(seen.filter((request) => request.url === `/api/admin/leads/${leadId}`).length).toBeGreaterThanOrEqual(2);
  });

  it('offers no assignment to a lead without a paid deposit waiting for a booking', async () => {
    mockAdminApi(
      on('GET', `/api/admin/leads/${leadId}`, { body: detail({ deposit: 'none' }) }),
      on('GET', listPath, { body: { items: [booking(1)] } }),
    );
    renderScreen(<LeadDetailScreen />, path, '/admin/leads/:id');
    const panel = await screen.findByRole('region', { name: 'Unmatched bookings' });
    expect(within(panel).queryByRole('button', { name: 'Assign to this lead' })).toBeNull();
    expect(within(panel).getByText(/Only a lead with a paid deposit not yet booked can take one/)).toBeTruthy();
  });
});
