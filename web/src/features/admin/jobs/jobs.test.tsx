// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { adminJobSchema, jobsPageSchema, jobsSummarySchema } from '#machines/protocol/admin/jobs.js';
import { QUEUE_NAMES } from '#machines/protocol/operations.js';
import { JobsScreen } from './jobs.js';
import { CSRF, mockAdminApi, on, renderScreen, installAdminTestKit, uuid } from '../test-kit.js';

installAdminTestKit();

const zero = { pending: 0, enqueued: 0, active: 0, completed: 0, failed: 0 };
const summary: z.input<typeof jobsSummarySchema> = {
  redis: 'up',
  queues: QUEUE_NAMES.map((queue) => ({
    queue,
    counts: queue === 'email' ? { ...zero, completed: 3, failed: 1 } : zero,
    total: queue === 'email' ? 4 : 0,
    bull: { waiting: 0, active: 0, delayed: 0, failed: queue === 'email' ? 1 : 0 },
  })),
};
const failedJob: z.input<typeof adminJobSchema> = {
  id: uuid(11),
  queue: 'email',
  name: 'results-email',
  status: 'failed',
  attempts: 3,
  max_attempts: 3,
  last_error: 'SMTP 554: mailbox unavailable',
  payload: { leadId: uuid(2) },
  created_at: '2026-01-31T10:00:00.000Z',
  finished_at: '2026-01-31T10:01:00.000Z',
  lead_id: uuid(2),
  flow_id: null,
};
const page: z.input<typeof jobsPageSchema> = { jobs: [failedJob], total: 1, page: 1, pageSize: 25 };

describe('Jobs screen', () => {
  it('shows each queue with its counts and the job history with a failed job and its error', async () => {
    mockAdminApi(on('GET', '/api/admin/jobs/summary', { body: summary }), on('GET', '/api/admin/jobs', { body: page }));
    renderScreen(<JobsScreen />, '/admin/jobs');

    const jobs = await screen.findByRole('list', { name: 'Jobs' });
    expect(within(jobs).getByText('results-email')).toBeTruthy();
    expect(within(jobs).getByText('SMTP 554: mailbox unavailable')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry all failed (1)' })).toBeTruthy();
    expect(screen.getByText('Page 1 of 1 · 1 job')).toBeTruthy();
  });

  it('asks the server for the status chosen in the filter', async () => {
    const seen = mockAdminApi(on('GET', '/api/admin/jobs/summary', { body: summary }), on('GET', '/api/admin/jobs', { body: page }));
    renderScreen(<JobsScreen />, '/admin/jobs');
    await screen.findByRole('list', { name: 'Jobs' });

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed');

    await waitFor(() => expect(seen.some((request) => request.url === '/api/admin/jobs?status=failed&page=1')).toBe(true));
  });

  it("retries a failed job with the session's CSRF token and says so", async () => {
    const retried: z.input<typeof adminJobSchema> = { ...failedJob, status: 'enqueued', last_error: null, finished_at: null };
    const seen = mockAdminApi(
      on('GET', '/api/admin/jobs/summary', { body: summary }),
      on('GET', '/api/admin/jobs', { body: page }),
      on('POST', `/api/admin/jobs/${failedJob.id}/retry`, { body: retried }),
    );
    renderScreen(<JobsScreen />, '/admin/jobs');

    await userEvent.click(await screen.findByRole('button', { name: /^Retry\s*job results-email$/ }));

    expect(await screen.findByText('results-email on the email queue will run again.')).toBeTruthy();
    const retry = seen.find((request) => request.method === 'POST')!;
    expect(retry.url).toBe(`/api/admin/jobs/${failedJob.id}/retry`);
    expect(retry.headers['x-csrf-token']).toBe(CSRF);
  });

  it('shows the error state, not a crash, when the server answers a body outside the contract', async () => {
    mockAdminApi(
      on('GET', '/api/admin/jobs/summary', { body: summary }),
      on('GET', '/api/admin/jobs', { body: { ...page, jobs: [{ ...failedJob, status: 'exploded' }] } }),
    );
    renderScreen(<JobsScreen />, '/admin/jobs');

    const error = await screen.findByRole('group', { name: 'Error' });
    expect(within(error).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows the error state when the server fails', async () => {
    mockAdminApi(
      on('GET', '/api/admin/jobs/summary', { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' } }),
      on('GET', '/api/admin/jobs', { body: page }),
    );
    renderScreen(<JobsScreen />, '/admin/jobs');

    expect(await screen.findByRole('group', { name: 'Error' })).toBeTruthy();
  });
});
