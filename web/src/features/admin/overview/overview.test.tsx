// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { overviewFunnelSchema } from '#machines/protocol/admin/funnel.js';
import type { adminOverviewSchema } from '#machines/protocol/admin/overview.js';
import type { siteSettingsViewSchema } from '#machines/protocol/admin/site-settings.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { OverviewScreen } from './overview.js';
import { mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from '../test-kit.js';

installAdminTestKit();

const overview: z.input<typeof adminOverviewSchema> = {
  period: '30d',
  timeZone: 'UTC',
  includeTest: false,
  from: '2026-01-02',
  to: '2026-01-31',
  counts: { totalLeads: 12, diagnosticsCompleted: 7, mirrorSessions: 3, surveyResponses: 5, contactMessages: 2 },
  recentLeads: [{ id: uuid(1), email: 'ada@example.com', source: 'website', created_at: '2026-01-30T09:00:00.000Z' }],
  recentMessages: [
    {
      id: uuid(2),
      name: 'Grace',
      email: 'grace@example.com',
      company: null,
      message: 'Do you coach teams?',
      created_at: '2026-01-30T10:00:00.000Z',
    },
  ],
};
const funnel: z.input<typeof overviewFunnelSchema> = {
  period: '30d',
  timeZone: 'UTC',
  includeTest: false,
  from: '2026-01-02',
  to: '2026-01-31',
  funnel: {
    visits: 40,
    captured: 12,
    diagnosticDone: 7,
    surveyDone: 5,
    tiers: { book_call: 2, homework: 2, nurture: 1 },
    ungraded: 0,
    depositsPaid: 1,
    sessionsBooked: 0,
    revenueCents: 25_000,
  },
  leadsPerDay: { bucket: 'day', bars: [{ start: '2026-01-31', leads: 1 }] },
};
const site: z.input<typeof siteSettingsViewSchema> = {
  settings: DEFAULT_SITE_SETTINGS,
  updatedAt: null,
  booking: { url: 'https://calendly.com/coach/intro', fallbackUrl: 'https://calendly.com/' },
};

describe('Overview', () => {
  it('shows the counters, the latest leads and the latest messages', async () => {
    mockAdminApi(
      on('GET', '/api/admin/overview', { body: overview }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/site-settings', { body: site }),
    );
    renderScreen(<OverviewScreen />, '/admin');

    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    const total = document.querySelector('[data-counter="totalLeads"]') as HTMLElement;
    expect(within(total).getByText('12')).toBeTruthy();
    expect(screen.getByText('Do you coach teams?')).toBeTruthy();
  });

  it('lists the paid deposits that need the coach, linked to their lead, and hides the panel when none do', async () => {
    const items = [
      {
        leadId: '7b0e0f0e-0000-4000-8000-000000000001',
        name: 'Grace Hopper',
        email: 'grace@example.com',
        reason: 'not_booked',
        amountCents: 25_000,
        paidAt: '2026-01-29T10:00:00Z',
        canceledAt: null,
        refundedAt: null,
        sessionStartsAt: null,
      },
      {
        leadId: '7b0e0f0e-0000-4000-8000-000000000002',
        name: 'Alan Turing',
        email: 'alan@example.com',
        reason: 'coach_canceled',
        amountCents: 25_000,
        paidAt: '2026-01-30T10:00:00Z',
        canceledAt: '2026-01-31T09:00:00Z',
        refundedAt: null,
        sessionStartsAt: null,
      },
      {
        leadId: '7b0e0f0e-0000-4000-8000-000000000003',
        name: 'Edsger Dijkstra',
        email: 'edsger@example.com',
        reason: 'refunded_booked',
        amountCents: 25_000,
        paidAt: '2026-01-28T10:00:00Z',
        canceledAt: null,
        refundedAt: '2026-01-31T10:00:00Z',
        sessionStartsAt: '2026-02-04T15:00:00Z',
      },
    ];
    mockAdminApi(
      on('GET', '/api/admin/overview', { body: overview }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/overview/attention', { body: { items } }),
      on('GET', '/api/admin/site-settings', { body: site }),
    );
    renderScreen(<OverviewScreen />, '/admin');

    const grace = await screen.findByRole('link', { name: 'Grace Hopper' });
    const panel = grace.closest('section') as HTMLElement;
    expect(within(panel).getByRole('heading', { name: 'Needs attention' })).toBeTruthy();
    expect(grace.getAttribute('href')).toBe(`/admin/leads/${items[0]!.leadId}`);
    expect(within(panel).getByText('Paid, no session booked after the reminder')).toBeTruthy();
    expect(within(panel).getByText('You cancelled the session: refund or rebook')).toBeTruthy();
    expect(within(panel).getByText('Refunded, but the session is still booked: cancel it at your scheduler')).toBeTruthy();
    expect(within(panel).getAllByText(/\$250 paid/)).toHaveLength(3);
  });

  it('shows no Needs attention panel when nothing needs the coach', async () => {
    mockAdminApi(
      on('GET', '/api/admin/overview', { body: overview }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/overview/attention', { body: { items: [] } }),
      on('GET', '/api/admin/site-settings', { body: site }),
    );
    renderScreen(<OverviewScreen />, '/admin');

    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Needs attention' })).toBeNull();
  });

  it("warns while social or community links point at a platform's home page, as it does for the booking page", async () => {
    mockAdminApi(
      on('GET', '/api/admin/overview', { body: overview }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/site-settings', { body: site }),
    );
    renderScreen(<OverviewScreen />, '/admin');
    const notice = await screen.findByText('Links not set:');
    const box = notice.closest('[data-notice="placeholder-links"]') as HTMLElement;
    expect(box.textContent).toContain('the community page, YouTube, LinkedIn, Community, X, Facebook, Instagram and TikTok still link');
    expect(within(box).getByRole('link', { name: 'Set them in Site settings' }).getAttribute('href')).toBe('/admin/settings');
  });

  it('shows no links warning once every link is the coach’s own or left out', async () => {
    const own = {
      ...site,
      settings: {
        ...DEFAULT_SITE_SETTINGS,
        communityUrl: 'https://www.skool.com/leaders',
        socialLinks: {
          video: null,
          professional: 'https://www.linkedin.com/in/dana',
          community: null,
          x: null,
          facebook: null,
          instagram: null,
          tiktok: null,
        },
      },
    };
    mockAdminApi(
      on('GET', '/api/admin/overview', { body: overview }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/site-settings', { body: own }),
    );
    renderScreen(<OverviewScreen />, '/admin');
    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    expect(document.querySelector('[data-notice="placeholder-links"]')).toBeNull();
  });

  it('shows the error state when the overview fails', async () => {
    mockAdminApi(
      on('GET', '/api/admin/overview', { status: 500, body: { message: 'boom' } }),
      on('GET', '/api/admin/overview/funnel', { body: funnel }),
      on('GET', '/api/admin/site-settings', { body: site }),
    );
    renderScreen(<OverviewScreen />, '/admin');

    expect((await screen.findAllByRole('group', { name: 'Error' })).length).toBeGreaterThan(0);
  });
});
