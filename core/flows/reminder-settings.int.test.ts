import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { flowClient, promoteTimers } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';

/*
 * The reminders' timing and on/off as the coach sets them in the admin (decision 0049), on real
 * PostgreSQL, Redis, HTTP and workers: read when a flow sets its timer, so no restart; a timer set
 * before a change keeps its due time, and one set before the reminder was turned off sends nothing.
 */

let harness: TestApp;
let pool: pg.Pool;
let admin: SignedInAdmin;

beforeAll(async () => {
  // the server's defaults: 1 hour to the invitation to finish, 2 to the reminder to book
  harness = await buildTestApp({ ownDatabase: true, listen: true, env: { ASSESSMENT_REMINDER_HOURS: '1', BOOKING_REMINDER_HOURS: '2' } });
  ({ pool } = harness);
  admin = await signedInAdmin(pool);
});

afterAll(() => harness?.close());

const email = (label: string) => `remind-${label}-${randomBytes(4).toString('hex')}@example.com`;

function saveReminders(settings: { finish: [boolean, number]; book: [boolean, number] }) {
  return harness.app.inject({
    method: 'PUT',
    url: '/api/admin/reminder-settings',
    headers: admin.headers,
    payload: {
      assessment_reminder: { enabled: settings.finish[0], delayHours: settings.finish[1] },
      booking_reminder: { enabled: settings.book[0], delayHours: settings.book[1] },
    },
  });
}

async function timerDelays(flowId: string) {
  const found = await pool.query<{ delay: number }>(
    "SELECT round(extract(epoch FROM run_after - created_at))::int AS delay FROM jobs WHERE flow_id = $1 AND queue = 'timers' AND name = 'ASSESSMENT_REMINDER_DUE'",
    [flowId],
  );
  return found.rows.map((row) => row.delay);
}

/** A captured lead, with a proven address so the invitation to finish may go to it. */
async function capturedFlow(label: string) {
  const client = flowClient(harness.url);
  const started = await client.start();
  const address = email(label);
  expect((await client.send(started.flowId, { type: 'CAPTURE_SUBMIT', name: 'Rita Remind', email: address })).state).toBe('intro');
  await pool.query('UPDATE leads SET email_proven_at = now() WHERE email = $1', [address]);
  return started.flowId;
}

describe('reminder settings', () => {
  it('shows the server defaults until saved, and refuses a bad delay naming the field', async () => {
    const view = await harness.app.inject({ method: 'GET', url: '/api/admin/reminder-settings', headers: admin.headers });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      settings: { assessment_reminder: { enabled: true, delayHours: 1 }, booking_reminder: { enabled: true, delayHours: 2 } },
      updatedAt: null,
    });
    const bad = await saveReminders({ finish: [true, 0], book: [true, 2] });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('assessment_reminder');
  });

  it('a saved delay applies to the next timer without a restart; off sets none and stops one already set', async () => {
    const { queues } = await buildTestWorker(harness, { queues: ['timers', 'email'] });
    const before = await capturedFlow('before');
    expect(await timerDelays(before)).toEqual([3600]);

    const saved = await saveReminders({ finish: [true, 3], book: [true, 48] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.assessment_reminder).toEqual({ enabled: true, delayHours: 3 });
    const after = await capturedFlow('after');
    expect(await timerDelays(after)).toEqual([3 * 3600]);
    // the timer set before the change keeps its due time
    expect(await timerDelays(before)).toEqual([3600]);

    expect((await saveReminders({ finish: [false, 3], book: [true, 48] })).statusCode).toBe(200);
    const off = await capturedFlow('off');
    expect(await timerDelays(off)).toEqual([]);

    // a timer set while it was on comes due after it was turned off: no email, and the job says why
    expect(await promoteTimers(pool, queues, before)).toBe(1);
    await until(async () => {
      const jobs = await pool.query<{ status: string }>(
        "SELECT status FROM jobs WHERE flow_id = $1 AND queue = 'email' AND name = 'assessment-reminder'",
        [before],
      );
      return jobs.rows[0]?.status === 'completed';
    });
    const job = await pool.query<{ skipped: string }>(
      "SELECT result->>'skipped' AS skipped FROM jobs WHERE flow_id = $1 AND queue = 'email' AND name = 'assessment-reminder'",
      [before],
    );
    expect(job.rows[0]!.skipped).toBe('the coach turned this reminder off in the admin (Site settings)');
    const emails = await pool.query('SELECT 1 FROM email_outbox o JOIN jobs j ON j.id = o.job_id WHERE j.flow_id = $1', [before]);
    expect(emails.rowCount).toBe(0);
  });
});
