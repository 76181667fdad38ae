import { UnrecoverableError } from 'bullmq';
import { z } from 'zod';
import type { MonitorServerFrame } from '#machines/protocol/monitor.js';
import { inTransaction } from '#core/db/transaction.js';
import { insertJob } from '#core/queues/outbox.js';
import type { SlackJobPayload } from '#core/slack/events.js';
import { readAssessmentMention } from '#core/slack/grouping.js';
import { latestMessageId, recordAssessment, storeBotMessage, type AssessmentOutcome } from '#core/slack/monitor-store.js';
import type { ProcessorContext, QueueProcessor } from './processor.js';

/** A Slack message event, as much of it as the monitor reads. */
const messageEventSchema = z.object({
  type: z.literal('message'),
  subtype: z.string().optional(),
  channel: z.string().min(1).max(100),
  user: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
  bot_id: z.string().max(100).optional(),
  bot_profile: z.looseObject({ name: z.string().max(100).optional() }).optional(),
  text: z.string().optional(),
  ts: z.string().regex(/^\d{1,10}(\.\d{1,6})?$/, 'expected a Slack ts such as 1700000000.000100'),
});

const payloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), eventId: z.string().min(1), event: z.record(z.string(), z.unknown()) }),
  z.object({
    kind: z.literal('close'),
    assessmentKey: z.string().min(1).max(200),
    afterMessageId: z.string().regex(/^\d+$/),
    marked: z.boolean(),
  }),
]);

function outcomeFrames(outcome: AssessmentOutcome): MonitorServerFrame[] {
  if (outcome.kind === 'processed') return [{ type: 'assessment_processed', data: outcome.assessment }];
  if (outcome.kind === 'error') return [{ type: 'assessment_error', error: outcome.error }];
  return [];
}

const candidateOf = (text: string) => readAssessmentMention(text).candidateName;

/**
 * Slack may deliver a group's messages out of order, and several are processed at once, so a
 * completion marker is acted on this long after it arrives: messages sent just before it are in.
 */
const COMPLETION_SETTLE_MS = 2_000;

/**
 * Stores a bot message (anything else from Slack is acknowledged and dropped) and files it under
 * the assessment its text names, with a delayed 'close' job: after COMPLETION_SETTLE_MS for a
 * completion marker, otherwise after SLACK_ASSESSMENT_QUIET_MS of quiet.
 */
async function receiveEvent(payload: Extract<SlackJobPayload, { kind: 'event' }>, { pool, config, publishMonitor }: ProcessorContext) {
  const parsed = messageEventSchema.safeParse(payload.event);
  if (!parsed.success) return { ignored: `not a message event (${String(payload.event.type)})` };
  const event = parsed.data;
  const fromBot = event.bot_id !== undefined || event.subtype === 'bot_message';
  if (!fromBot || (event.subtype !== undefined && event.subtype !== 'bot_message')) return { ignored: 'not a new bot message' };

  const text = (event.text ?? '').slice(0, 40_000);
  const mention = readAssessmentMention(text);
  const stored = await inTransaction(pool, async (client) => {
    const stored = await storeBotMessage(client, {
      eventId: payload.eventId,
      channel: event.channel,
      botId: event.bot_id ?? null,
      user: event.user ?? event.username ?? event.bot_profile?.name ?? null,
      text,
      ts: event.ts,
      assessmentKey: mention.assessmentKey,
    });
    if (stored && mention.assessmentKey) {
      const close: SlackJobPayload = {
        kind: 'close',
        assessmentKey: mention.assessmentKey,
        afterMessageId: stored.id,
        marked: mention.completes,
      };
      const delayMs = mention.completes ? COMPLETION_SETTLE_MS : config.SLACK_ASSESSMENT_QUIET_MS;
      await insertJob(client, { queue: 'slack', name: 'close-assessment', payload: close, delayMs });
    }
    return stored;
  });
  if (!stored) return { duplicate: true };
  await publishMonitor([{ type: 'slack_message', data: stored.message }]);
  return { messageId: stored.id, assessmentKey: mention.assessmentKey };
}

/**
 * Records an assessment: after its completion marker, or after a quiet window whose last message is
 * still the latest of the group (a newer message scheduled its own, later check).
 */
async function closeAssessment(payload: Extract<SlackJobPayload, { kind: 'close' }>, { pool, publishMonitor }: ProcessorContext) {
  const outcome = await inTransaction(pool, async (client) => {
    if (!payload.marked && (await latestMessageId(client, payload.assessmentKey)) !== payload.afterMessageId) return null;
    return recordAssessment(client, payload.assessmentKey, candidateOf);
  });
  if (!outcome) return { superseded: true };
  await publishMonitor(outcomeFrames(outcome));
  return { outcome: outcome.kind };
}

/** The 'slack' queue: received Slack events and quiet-assessment checks. */
export const slackProcessor: QueueProcessor = {
  process: async (job, context) => {
    const parsed = payloadSchema.safeParse(job.data.payload);
    if (!parsed.success) throw new UnrecoverableError('not a slack job');
    const payload = parsed.data;
    return payload.kind === 'event' ? receiveEvent(payload, context) : closeAssessment(payload, context);
  },
  // the monitor hears of a job that could not be done, rather than of nothing
  onExhausted: async (job, { publishMonitor }, error) => {
    const payload = job.data.payload as Partial<Extract<SlackJobPayload, { kind: 'close' }>>;
    const what = payload.kind === 'close' ? `assessment ${payload.assessmentKey}` : 'a Slack message';
    await publishMonitor([{ type: 'assessment_error', error: `Failed to process ${what}: ${error.message}`.slice(0, 500) }]);
  },
};
