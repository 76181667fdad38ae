import { createHmac } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import { formatScore, SCORE_NAMES } from '#machines/grading/score-names.js';
import type { LeadEventBody } from '#core/integrations/lead-events.js';
import { networkCause } from '#core/integrations/network-cause.js';
import { MARKETING_SYNC_JOB } from '#core/integrations/marketing-sync.js';
import { outboundPolicy, postWebhook } from '#core/integrations/outbound.js';
import { emailMarketingSync } from './email-marketing.js';
import type { QueueProcessor } from './processor.js';

/** How long a receiver gets to answer before the attempt counts as failed (and is retried). */
const WEBHOOK_TIMEOUT_MS = 10_000;
const SIGNATURE_HEADER = 'x-hf-signature';
const EVENT_ID_HEADER = 'x-hf-event-id';

const payloadSchema = z.object({
  target: z.enum(['automation', 'team_chat']),
  body: z.looseObject({
    event: z.string(),
    leadId: z.string(),
    flowId: z.string(),
    occurredAt: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});

/** `sha256=<hex HMAC-SHA256 of the raw body>`, the value of x-hf-signature. */
function signBody(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** When a booked session starts, in words a chat reader takes in at a glance (UTC: the channel has no one time zone). */
function startTime(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return ` for ${date.toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
}

/** A Slack-compatible message about a lead who qualified for a call, or booked or cancelled it. */
function chatMessage(body: LeadEventBody, publicUrl: string): { text: string } {
  const { name, email, archetype, leadershipScore, startsAt, canceledBy } = body.data as {
    name?: string;
    email?: string;
    archetype?: string;
    leadershipScore?: number;
    startsAt?: string | null;
    canceledBy?: string | null;
  };
  const who = [name, email ? `<${email}>` : ''].filter(Boolean).join(' ') || 'A lead';
  const link = `${publicUrl.replace(/\/$/, '')}/admin/leads/${body.leadId}`;
  if (body.event === 'lead.not_booked')
    return { text: `Paid the deposit, no session booked yet: ${who}. A reminder with the booking link went out. ${link}` };
  if (body.event === 'lead.booked') return { text: `Strategy session booked: ${who}${startTime(startsAt)}. ${link}` };
  if (body.event === 'lead.booking_canceled') {
    const by = canceledBy === 'coach' ? ' by you' : canceledBy === 'lead' ? ' by the lead' : '';
    return { text: `Strategy session cancelled${by}: ${who} paid the deposit and has no session now. ${link}` };
  }
  const what = [archetype, leadershipScore !== undefined ? `${SCORE_NAMES.leadership.toLowerCase()} ${formatScore(leadershipScore)}` : '']
    .filter(Boolean)
    .join(', ');
  return { text: `New book_call lead: ${who}${what ? ` (${what})` : ''}. ${link}` };
}

/**
 * The error a failed POST becomes, in words that never quote the URL (it can carry a token). An
 * address refused by the filtering agent is not retried: it is the setting that must change.
 */
function deliveryFailure(target: string, error: unknown): Error {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return new Error(`${target} webhook: timeout: no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`);
  if (error instanceof Error && /is not allowed/.test(error.message))
    return new UnrecoverableError(`${target} webhook: the address is private or reserved, so nothing was sent`);
  return new Error(`${target} webhook: ${networkCause(error) ?? 'the request failed'}`);
}

/**
 * Sends one lead event (or, for an email-marketing sync job, syncs the lead's contact): a signed JSON POST to the automation webhook, or a {text} message to the
 * team-chat webhook. The URL and signing secret are read now, from the card as it stands (a card
 * disabled meanwhile sends nothing), so they never sit in a job row or a log line. Anything but a
 * 2xx within 10 s throws and BullMQ retries (5 attempts, exponential backoff); x-hf-event-id is the
 * job row id, the same on every retry, for receivers to drop duplicates.
 */
export const webhooksProcessor: QueueProcessor = {
  process: async (job, context) => {
    // the email-marketing sync shares this queue's retries and backoff
    if (job.name === MARKETING_SYNC_JOB) return emailMarketingSync(job, context);
    const { pool, config } = context;
    const parsed = payloadSchema.safeParse(job.data.payload);
    if (!parsed.success) throw new UnrecoverableError('not a webhooks job');
    const { target, body } = parsed.data;
    const setting = await pool.query<{ value: string; signing_secret: string | null }>(
      'SELECT value, signing_secret FROM integration_settings WHERE key = $1 AND enabled AND configured',
      [target],
    );
    const row = setting.rows[0];
    if (!row) return { skipped: `the ${target} integration is off` };
    if (target === 'automation' && !row.signing_secret) throw new UnrecoverableError('the automation integration has no signing secret');

    const raw = JSON.stringify(target === 'automation' ? body : chatMessage(body as LeadEventBody, config.publicUrl));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [EVENT_ID_HEADER]: job.data.jobRowId,
      'user-agent': 'hf-webhooks/1',
    };
    if (target === 'automation') headers[SIGNATURE_HEADER] = signBody(raw, row.signing_secret!);
    let status: number;
    try {
      // through the filtering agents: the address dialled must be public (or listed); no redirects
      status = await postWebhook(row.value, headers, raw, outboundPolicy(config), WEBHOOK_TIMEOUT_MS);
    } catch (error) {
      throw deliveryFailure(target, error);
    }
    if (status < 200 || status >= 300) throw new Error(`${target} webhook: the receiver answered ${status}`);
    return { delivered: body.event, target, status };
  },
};
