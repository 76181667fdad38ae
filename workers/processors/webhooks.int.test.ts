import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { seedFlow, surveyedEvents } from '#test/flows.js';
import { injectAs } from '#test/visitor.js';
import { buildTestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { FlowEngine } from '#core/flows/engine.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  status: number;
}

/** A loopback receiver answering each POST with the next status of `statuses` (then 200). */
async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = statuses.shift() ?? 200;
      received.push({ headers: request.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function setup() {
  // the receivers listen on loopback, which outgoing webhooks may reach only when listed
  const { app, pool, config, close } = await buildTestApp({ ownDatabase: true, env: { WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1' } });
  onTestFinished(close);
  return { config, pool, app };
}

/** Turns a card on with a value, as the admin's PUT does (the signing secret included). */
async function enable(pool: pg.Pool, key: string, value: string, signingSecret: string | null = null) {
  await pool.query(
    `INSERT INTO integration_settings (key, enabled, configured, value, signing_secret) VALUES ($1, true, true, $2, $3)
     ON CONFLICT (key) DO UPDATE SET enabled = true, configured = true, value = $2, signing_secret = $3`,
    [key, value, signingSecret],
  );
}

const SECRET = `whsec_${'ab'.repeat(32)}`;

function verifies(delivery: Received, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(delivery.raw).digest('hex')}`);
  const given = Buffer.from(String(delivery.headers['x-hf-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('outgoing webhooks', () => {
  it('a capture sends lead.captured as a signed JSON POST; a receiver answering 500 twice is retried until it takes it', async () => {
    const { config, pool, app } = await setup();
    const target = await receiver([500, 500]);
    await enable(pool, 'automation', target.url, SECRET);
    await buildTestWorker({ pool, config }, { queues: ['webhooks'] });

    const browser = injectAs(app);
    const started = await browser({ method: 'POST', url: '/api/flows', payload: {} });
    const flowId = started.json().flowId as string;
    const captured = await browser({
      method: 'POST',
      url: `/api/flows/${flowId}/events`,
      payload: { event: { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: 'ada-webhook@example.com' } },
    });
    expect(captured.statusCode, captured.body).toBe(200);

    await until(() => target.received.length >= 3, 20_000);
    const job = await pool.query<{ id: string; status: string; attempts: number }>(
      "SELECT id, status, attempts FROM jobs WHERE queue = 'webhooks'",
    );
    expect(job.rows).toHaveLength(1);
    await until(async () => (await pool.query("SELECT 1 FROM jobs WHERE queue = 'webhooks' AND status = 'completed'")).rowCount === 1);
    expect(target.received.map((delivery) => delivery.status)).toEqual([500, 500, 200]);

    for (const delivery of target.received) {
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-hf-event-id']).toBe(job.rows[0]!.id);
      expect(verifies(delivery, SECRET)).toBe(true);
      expect(verifies(delivery, `whsec_${'cd'.repeat(32)}`)).toBe(false);
    }
    // every retry carries the same body, so a receiver can drop duplicates by x-hf-event-id
    expect(new Set(target.received.map((delivery) => delivery.raw)).size).toBe(1);
    const body = JSON.parse(target.received[2]!.raw);
    const lead = await pool.query('SELECT lead_id FROM leads WHERE email = $1', ['ada-webhook@example.com']);
    expect(body).toMatchObject({
      event: 'lead.captured',
      leadId: lead.rows[0].lead_id,
      flowId,
      occurredAt: expect.any(String),
      data: { email: 'ada-webhook@example.com', name: 'Ada Lovelace' },
    });
    const row = await pool.query("SELECT status, attempts, payload::text FROM jobs WHERE queue = 'webhooks'");
    expect(row.rows[0]).toMatchObject({ status: 'completed', attempts: 3 });
    // the URL is read when sending: it never sits in the job row
    expect(row.rows[0].payload).not.toContain(target.url);
  });

  it("a failed delivery records its cause on the job (what Jobs and the lead's page show), never the URL", async () => {
    const { config, pool, app } = await setup();
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    await enable(pool, 'automation', `http://127.0.0.1:${port}/hook?token=hook-secret`, SECRET);
    await buildTestWorker({ pool, config }, { queues: ['webhooks'] });

    const browser = injectAs(app);
    const flowId = (await browser({ method: 'POST', url: '/api/flows', payload: {} })).json().flowId as string;
    await browser({
      method: 'POST',
      url: `/api/flows/${flowId}/events`,
      payload: { event: { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: 'ada-refused@example.com' } },
    });
    await until(
      async () => Boolean((await pool.query("SELECT last_error FROM jobs WHERE queue = 'webhooks' AND last_error IS NOT NULL")).rowCount),
      20_000,
    );
    const { rows } = await pool.query<{ last_error: string }>("SELECT last_error FROM jobs WHERE queue = 'webhooks'");
    expect(rows[0]!.last_error).toBe('automation webhook: connection refused: nothing listens at that address and port (ECONNREFUSED)');
  });

  it('sends nothing while the automation card is off', async () => {
    const { pool, app } = await setup();
    const browser = injectAs(app);
    const started = await browser({ method: 'POST', url: '/api/flows', payload: {} });
    await browser({
      method: 'POST',
      url: `/api/flows/${started.json().flowId}/events`,
      payload: { event: { type: 'CAPTURE_SUBMIT', name: 'Grace', email: 'grace-webhook@example.com' } },
    });
    expect((await pool.query("SELECT 1 FROM jobs WHERE queue = 'webhooks'")).rowCount).toBe(0);
  });

  it('a book_call GRADED sends lead.graded to automation and a {text} message to the chat webhook; a homework one only to automation', async () => {
    const { config, pool } = await setup();
    const automation = await receiver();
    const chat = await receiver();
    await enable(pool, 'automation', automation.url, SECRET);
    await enable(pool, 'team_chat', chat.url);
    await buildTestWorker({ pool, config }, { queues: ['webhooks'] });

    const grade = async (tier: 'book_call' | 'homework') => {
      const email = `grade-${tier}-${Date.now()}@example.com`;
      const lead = await createOrUpdateLead(pool, { email, name: 'Katherine Johnson' });
      const flowId = await seedFlow(pool, 'assessmentFlow', surveyedEvents({ name: 'Katherine Johnson', email, leadId: lead.leadId }), {
        leadId: lead.leadId,
      });
      const engine = new FlowEngine(pool);
      const flow = await engine.apply(flowId, { type: 'GRADED', result: resultFor(tier) }, 'worker');
      expect(flow.state).toBe('results');
      return { leadId: lead.leadId, flowId };
    };

    const booked = await grade('book_call');
    await until(() => automation.received.length === 1 && chat.received.length === 1);
    const graded = JSON.parse(automation.received[0]!.raw);
    expect(graded).toMatchObject({ event: 'lead.graded', leadId: booked.leadId, flowId: booked.flowId, data: { tier: 'book_call' } });
    expect(verifies(automation.received[0]!, SECRET)).toBe(true);
    const message = JSON.parse(chat.received[0]!.raw);
    expect(Object.keys(message)).toEqual(['text']);
    expect(message.text).toContain('book_call');
    expect(message.text).toContain('Katherine Johnson');
    expect(message.text).toContain(`/admin/leads/${booked.leadId}`);

    const homework = await grade('homework');
    await until(() => automation.received.length === 2);
    expect(JSON.parse(automation.received[1]!.raw)).toMatchObject({ event: 'lead.graded', data: { tier: 'homework' } });
    // the GRADED transaction wrote every webhook job it causes: one, for automation, and none is left to run
    const jobs = () =>
      pool.query<{ target: string; status: string }>(
        "SELECT payload->>'target' AS target, status FROM jobs WHERE queue = 'webhooks' AND flow_id = $1",
        [homework.flowId],
      );
    await until(async () => (await jobs()).rows.every((job) => job.status === 'completed'));
    expect((await jobs()).rows).toEqual([{ target: 'automation', status: 'completed' }]);
    expect(chat.received).toHaveLength(1);
  });

  it('tells the chat in words when a paying lead books, cancels or is still not booked at the reminder', async () => {
    const { config, pool } = await setup();
    const chat = await receiver();
    await enable(pool, 'team_chat', chat.url);
    await buildTestWorker({ pool, config }, { queues: ['webhooks'] });
    const email = `payer-${Date.now()}@example.com`;
    const lead = await createOrUpdateLead(pool, { email, name: 'Dorothy Vaughan' });
    const flowId = await seedFlow(
      pool,
      'assessmentFlow',
      [
        ...surveyedEvents({ name: 'Dorothy Vaughan', email, leadId: lead.leadId }),
        { type: 'GRADED', result: resultFor('book_call') },
        { type: 'CONTINUE' },
        { type: 'PAY_DEPOSIT' },
        { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_test_chat' },
      ],
      { leadId: lead.leadId },
    );
    const engine = new FlowEngine(pool);
    await engine.apply(flowId, { type: 'BOOKING_REMINDER_DUE' }, 'worker');
    await engine.apply(flowId, { type: 'SESSION_BOOKED', provider: 'calendly', startsAt: '2026-12-01T15:00:00Z' }, 'server');
    await engine.apply(flowId, { type: 'SESSION_CANCELED', provider: 'calendly', canceledBy: 'coach' }, 'server');

    await until(() => chat.received.length === 3);
    const texts = chat.received.map((request) => (JSON.parse(request.raw) as { text: string }).text).sort();
    expect(texts).toEqual([
      `Paid the deposit, no session booked yet: Dorothy Vaughan <${email}>. A reminder with the booking link went out. ${config.publicUrl}/admin/leads/${lead.leadId}`,
      `Strategy session booked: Dorothy Vaughan <${email}> for Dec 1, 2026, 3:00 PM UTC. ${config.publicUrl}/admin/leads/${lead.leadId}`,
      `Strategy session cancelled by you: Dorothy Vaughan <${email}> paid the deposit and has no session now. ${config.publicUrl}/admin/leads/${lead.leadId}`,
    ]);
  });
});
