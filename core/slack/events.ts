import type pg from 'pg';
import { z } from 'zod';
import { inTransaction } from '../db/transaction.js';
import { recordWebhookReceipt } from '../integrations/webhook-receipts.js';
import { insertJob } from '../queues/outbox.js';

/** What Slack POSTs to the Events API URL: the URL check, an event, or a rate-limit notice. */
export const slackEnvelopeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: z.string().min(1).max(500) }),
  z.object({
    type: z.literal('event_callback'),
    event_id: z.string().min(1).max(255),
    event_time: z.number().int().optional(),
    team_id: z.string().max(100).optional(),
    // the event itself is read by the job; here only its type must make sense
    event: z.looseObject({ type: z.string().min(1).max(100) }),
  }),
  z.object({ type: z.literal('app_rate_limited') }),
]);

/** The 'slack' queue's jobs: one per received event, and the delayed check that records an assessment (marked complete, or quiet). */
export type SlackJobPayload =
  | { kind: 'event'; eventId: string; event: Record<string, unknown> }
  | { kind: 'close'; assessmentKey: string; afterMessageId: string; marked: boolean };

/**
 * Records an event id once and queues its processing in the same transaction, so Slack's retries
 * (which repeat the event id) are answered without a second job. Returns false for a repeat.
 */
export async function acceptSlackEvent(
  pool: pg.Pool,
  eventId: string,
  event: Record<string, unknown> & { type: string },
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    if (!(await recordWebhookReceipt(client, 'slack', eventId, event.type))) return false;
    const payload: SlackJobPayload = { kind: 'event', eventId, event };
    await insertJob(client, { queue: 'slack', name: 'slack-event', payload });
    return true;
  });
}
