// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { INTEGRATION_KEYS, type integrationListSchema, type integrationSchema } from '#machines/protocol/admin/integrations.js';
import { IntegrationsScreen } from './integrations.js';
import { CSRF, mockAdminApi, on, renderScreen, installAdminTestKit } from '../test-kit.js';

installAdminTestKit();

type Card = z.input<typeof integrationSchema>;
const off = (key: Card['key']): Card => ({
  key,
  enabled: false,
  configured: false,
  value: null,
  secret: key === 'automation' || key === 'email_marketing' || key === 'team_chat',
  signingSecret: null,
  webhookKey: null,
  listId: null,
  lastSync: null,
  updatedAt: null,
});
const list: z.input<typeof integrationListSchema> = { integrations: INTEGRATION_KEYS.map(off) };

describe('Integrations', () => {
  it('shows every card, and a category shows its own', async () => {
    mockAdminApi(on('GET', '/api/admin/integrations', { body: list }));
    renderScreen(<IntegrationsScreen />, '/admin/integrations');

    const cards = await screen.findByRole('list', { name: 'Integrations' });
    expect(within(cards).getAllByRole('article')).toHaveLength(INTEGRATION_KEYS.length);

    await userEvent.click(screen.getByRole('button', { name: 'Scheduling' }));

    expect(
      within(cards)
        .getAllByRole('article')
        .map((card) => card.getAttribute('data-integration')),
    ).toEqual(['scheduling']);
  });

  it('turns a card on with the CSRF token', async () => {
    const seen = mockAdminApi(
      on('GET', '/api/admin/integrations', { body: list }),
      on('PUT', '/api/admin/integrations/scheduling', {
        body: { ...off('scheduling'), enabled: true, updatedAt: '2026-01-31T10:00:00.000Z' },
      }),
    );
    renderScreen(<IntegrationsScreen />, '/admin/integrations');

    await screen.findByRole('list', { name: 'Integrations' });
    await userEvent.click(within(document.querySelector<HTMLElement>('[data-integration="scheduling"]')!).getByRole('switch'));

    await waitFor(() => expect(seen.some((request) => request.method === 'PUT')).toBe(true));
    const put = seen.find((request) => request.method === 'PUT')!;
    expect(put.headers['x-csrf-token']).toBe(CSRF);
    expect(put.body).toEqual({ enabled: true });
    expect(await screen.findByLabelText('Booking URL')).toBeTruthy();
  });

  it('gives the booking webhook address and saves the signing key write-only, shown back masked', async () => {
    const scheduling = { ...off('scheduling'), enabled: true };
    const seen = mockAdminApi(
      on('GET', '/api/admin/integrations', {
        body: { integrations: INTEGRATION_KEYS.map((key) => (key === 'scheduling' ? scheduling : off(key))) },
      }),
      on('PUT', '/api/admin/integrations/scheduling', { body: { ...scheduling, webhookKey: '••••••••9abc' } }),
    );
    renderScreen(<IntegrationsScreen />, '/admin/integrations');

    await screen.findByRole('list', { name: 'Integrations' });
    const card = document.querySelector<HTMLElement>('[data-integration="scheduling"]')!;
    expect(within(card).getByText(`${window.location.origin}/api/integrations/scheduling/webhook`)).toBeTruthy();
    const save = within(card).getByRole('button', { name: 'Save key' });
    await userEvent.type(within(card).getByLabelText('Webhook signing key'), 'short');
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(card).getByLabelText('Webhook signing key'), '-but-now-long-enough');
    await userEvent.click(save);

    expect(await within(card).findByText('Signing key saved (••••••••9abc)')).toBeTruthy();
    const put = seen.find((request) => request.method === 'PUT')!;
    expect(put.body).toEqual({ webhookKey: 'short-but-now-long-enough' });
    expect(put.headers['x-csrf-token']).toBe(CSRF);
    expect(within(card).getByLabelText<HTMLInputElement>('Webhook signing key').value).toBe('');
  });

  it('shows the error state when a card is outside the contract', async () => {
    mockAdminApi(on('GET', '/api/admin/integrations', { body: { integrations: [{ ...off('payments'), key: 'fax' }] } }));
    renderScreen(<IntegrationsScreen />, '/admin/integrations');

    expect(await screen.findByRole('group', { name: 'Error' })).toBeTruthy();
  });
});
