import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isolatedConfig } from '#test/helpers.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { createPool } from '#core/db/pool.js';
import { deliverEmail, queueEmail, type EmailDraft } from '#core/email/outbox.js';
import { startSmtpSink } from '#test/smtp-sink.js';
import { inTransaction } from '#core/db/transaction.js';
import { smtpSender } from '#core/email/transport.js';
import { emailProcessor } from './email.js';

/* Each test has a database and queue prefix of its own: no other relay or worker meets its jobs. */
async function setup(env: Record<string, string> = {}) {
  const { config, drop } = await isolatedConfig(env);
  const pool = createPool(config.DATABASE_URL!, 6);
  onTestFinished(async () => {
    await pool.end();
    await drop();
  });
  return { pool, config };
}

const draft: EmailDraft = {
  kind: 'contact_confirmation',
  to: 'visitor@example.com',
  replyTo: 'coach@example.com',
  subject: 'Thank you for your message, Ada',
  text: "Hi Ada,\n\nThank you for reaching out. We'll respond within 24 hours.\n",
  html: "<p>Hi Ada,</p><p>We'll respond within 24 hours.</p>",
};

async function queue(pool: pg.Pool, options: { maxAttempts?: number } = {}): Promise<string> {
  return inTransaction(pool, async (client) => {
    const id = await queueEmail(client, draft);
    if (options.maxAttempts)
      await client.query('UPDATE jobs SET max_attempts = $1 WHERE id = (SELECT job_id FROM email_outbox WHERE id = $2)', [
        options.maxAttempts,
        id,
      ]);
    return id;
  });
}

async function outboxRow(pool: pg.Pool, id: string) {
  const rows = await pool.query(
    'SELECT e.status, e.provider_message_id, e.error, e.sent_at, j.status AS job_status, j.attempts, j.last_error FROM email_outbox e JOIN jobs j ON j.id = e.job_id WHERE e.id = $1',
    [id],
  );
  return rows.rows[0];
}

describe('email delivery', () => {
  it('sends a queued email through SMTP_URL to a real SMTP server and marks it sent with the message id', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config } = await setup({ SMTP_URL: sink.url, EMAIL_FROM: 'hello@coach.example.com' });
    await buildTestWorker({ pool, config }, { queues: ['email'], processors: { email: emailProcessor } });

    const id = await queue(pool);
    // the row is marked sent inside the job; the job row is completed just after it returns
    await until(async () => (await outboxRow(pool, id))?.job_status === 'completed');

    expect(sink.messages).toHaveLength(1);
    const [mail] = sink.messages;
    expect(mail!.envelopeFrom).toBe('hello@coach.example.com');
    expect(mail!.envelopeTo).toEqual(['visitor@example.com']);
    expect(mail!.subject).toBe('Thank you for your message, Ada');
    expect(mail!.headers.get('reply-to')).toBe('coach@example.com');
    expect(mail!.text).toContain("We'll respond within 24 hours.");
    expect(mail!.html).toContain("<p>We'll respond within 24 hours.</p>");
    const row = await outboxRow(pool, id);
    expect(row).toMatchObject({ status: 'sent', error: null, job_status: 'completed', attempts: 1 });
    expect(row.provider_message_id).toBe(mail!.headers.get('message-id'));
    expect(row.sent_at).toBeInstanceOf(Date);
  });

  it('never sends a row twice once it is sent', async () => {
    const sink = await startSmtpSink();
    onTestFinished(() => sink.close());
    const { pool, config } = await setup({ SMTP_URL: sink.url });
    const id = await queue(pool);

    const first = await deliverEmail(pool, smtpSender(config), id);
    const again = await deliverEmail(pool, smtpSender(config), id);

    expect(first.status).toBe('sent');
    expect(again).toEqual({ ...first, repeated: true });
    expect(sink.messages).toHaveLength(1);
    // no email carries a file: the report is a link (decision 0040)
    expect(sink.messages[0]!.attachments).toEqual([]);
  });

  it('records the email in the outbox without sending when SMTP_URL is not set', async () => {
    const { pool, config } = await setup();
    expect(config.SMTP_URL).toBeUndefined();
    await buildTestWorker({ pool, config }, { queues: ['email'], processors: { email: emailProcessor } });

    const id = await queue(pool);
    await until(async () => (await outboxRow(pool, id))?.job_status === 'completed');
    expect(await outboxRow(pool, id)).toMatchObject({ status: 'recorded', provider_message_id: null, sent_at: null });
  });

  it('retries a refused email with backoff, then marks it failed with the error, never with the SMTP password', async () => {
    const credentials = { user: 'mailer', password: 'pa55-w0rd-never-shown' };
    const sink = await startSmtpSink({ reject: 'Mailbox unavailable', credentials });
    onTestFinished(() => sink.close());
    const { pool, config } = await setup({ SMTP_URL: sink.url });
    expect(config.SMTP_URL).toContain(credentials.password);
    await buildTestWorker({ pool, config }, { queues: ['email'], processors: { email: emailProcessor } });

    const id = await queue(pool, { maxAttempts: 3 });
    await until(async () => (await outboxRow(pool, id))?.status === 'failed', 30_000);

    const row = await outboxRow(pool, id);
    expect(sink.attempts).toBe(3);
    expect(sink.messages).toHaveLength(0);
    expect(row).toMatchObject({ status: 'failed', job_status: 'failed', attempts: 3, provider_message_id: null });
    expect(row.error).toContain('Mailbox unavailable');
    expect(row.last_error).toContain('Mailbox unavailable');
    expect(`${row.error} ${row.last_error}`).not.toContain(credentials.password);
  });
});
