import type { JobWritingTx } from '../flows/job-writing-tx.js';
import type { FlowRow } from '../flows/flow-store.js';
import { insertMarketingSyncJobs } from './marketing-sync.js';
import { activeTargets } from './settings.js';

import type { LeadEventName, WebhookTarget } from '#machines/protocol/operations.js';

/** The JSON body of an automation POST (also what a chat message is written from). */
export interface LeadEventBody {
  event: LeadEventName;
  leadId: string;
  flowId: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** A webhooks job: which card to send to (its URL is read when sending, never stored in the job) and the body. */
interface WebhookJobPayload {
  target: WebhookTarget;
  body: LeadEventBody;
}

const EVENT_NAMES: Record<string, LeadEventName> = {
  LEAD_SAVED: 'lead.captured',
  GRADED: 'lead.graded',
  PAYMENT_CONFIRMED: 'lead.paid',
  SESSION_BOOKED: 'lead.booked',
  SESSION_CANCELED: 'lead.booking_canceled',
  BOOKING_REMINDER_DUE: 'lead.not_booked',
};

/** The events the team chat hears besides a book_call grading: a paying lead's session booked, cancelled, or still not booked. */
const CHAT_EVENTS: ReadonlySet<string> = new Set(['SESSION_BOOKED', 'SESSION_CANCELED', 'BOOKING_REMINDER_DUE']);

interface GradedResult {
  qualification?: string;
  archetype?: string;
  compositeScore?: number;
  totalScore?: number;
  fallback?: boolean;
  gamingDetected?: boolean;
  requiresRetake?: boolean;
}

/**
 * Called by FlowTx after it applies an event: an assessment flow's LEAD_SAVED, GRADED (not a
 * gaming verdict), PAYMENT_CONFIRMED, SESSION_BOOKED, SESSION_CANCELED or BOOKING_REMINDER_DUE
 * becomes a 'webhooks' job for the automation card, and a book_call GRADED or one of the booking
 * events for the team-chat card, each only while its card is enabled and configured.
 * The job rows commit with the event, so a receiver hears of exactly the events that happened.
 * A graded outcome also queues the lead's email-marketing sync (its tier and archetype changed).
 */
export async function queueLeadEventWebhooks(
  tx: JobWritingTx,
  flow: FlowRow,
  event: { type: string; [key: string]: unknown },
): Promise<void> {
  const name = EVENT_NAMES[event.type];
  if (!name || flow.machine !== 'assessmentFlow' || !flow.lead_id) return;
  const result = (event.type === 'GRADED' ? event.result : undefined) as GradedResult | undefined;
  if (result && (result.gamingDetected || result.requiresRetake)) return;
  const targets = await activeTargets(tx.client);
  // a new tier and archetype reach the email-marketing list too (decision 0048)
  if (result && targets.has('email_marketing')) await insertMarketingSyncJobs(tx.client, [flow.lead_id]);
  const toChat = targets.has('team_chat') && (result?.qualification === 'book_call' || CHAT_EVENTS.has(event.type));
  if (!targets.has('automation') && !toChat) return;

  const lead = await tx.client.query<{ email: string; name: string; source: string }>(
    'SELECT email, name, source FROM leads WHERE lead_id = $1',
    [flow.lead_id],
  );
  const person = lead.rows[0] ? { email: lead.rows[0].email, name: lead.rows[0].name, source: lead.rows[0].source } : {};
  // the facts named as everywhere else (core/leads/lead-facts.ts, machines/grading/score-names.ts)
  const data: Record<string, unknown> = { ...person, test: flow.testing ?? false };
  if (result) {
    Object.assign(data, {
      tier: result.qualification,
      archetype: result.archetype,
      leadershipScore: result.compositeScore,
      // the canned fallback has no qualification score: grading could not be had
      qualificationScore: result.totalScore ?? null,
      fallback: result.fallback ?? false,
    });
  }
  if (event.type === 'PAYMENT_CONFIRMED') data.paymentIntentId = event.paymentIntentId;
  if (event.type === 'SESSION_BOOKED') Object.assign(data, { provider: event.provider, startsAt: event.startsAt });
  if (event.type === 'SESSION_CANCELED') Object.assign(data, { provider: event.provider, canceledBy: event.canceledBy ?? null });
  const body: LeadEventBody = { event: name, leadId: flow.lead_id, flowId: flow.id, occurredAt: new Date().toISOString(), data };

  const send = (target: WebhookJobPayload['target']) =>
    tx.insertJob({
      queue: 'webhooks',
      name: `${target}:${name}`,
      payload: { target, body } satisfies WebhookJobPayload,
      flowId: flow.id,
      leadId: flow.lead_id,
    });
  if (targets.has('automation')) await send('automation');
  if (toChat) await send('team_chat');
}
