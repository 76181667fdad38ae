import type pg from 'pg';
import {
  MONITOR_ASSESSMENT_LIMIT,
  MONITOR_MESSAGE_LIMIT,
  type BotMessage,
  type MonitorSnapshot,
  type MonitorStats,
  type ProcessedAssessment,
} from '#machines/protocol/monitor.js';

type Db = pg.Pool | pg.ClientBase;

/** The monitor's counters and its active assessments (grouped, not yet recorded), from the tables. */
export async function monitorCounts(db: Db): Promise<{ stats: MonitorStats; activeAssessments: number }> {
  const { rows } = await db.query<{ total: number; grouped: number; processed: number; active: number }>(
    `SELECT (SELECT count(*)::int FROM chat_bot_messages) AS total,
            (SELECT count(*)::int FROM chat_bot_messages WHERE assessment_key IS NOT NULL) AS grouped,
            (SELECT count(*)::int FROM processed_assessments WHERE status = 'processed') AS processed,
            (SELECT count(DISTINCT m.assessment_key)::int FROM chat_bot_messages m
              WHERE m.assessment_key IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM processed_assessments p WHERE p.assessment_key = m.assessment_key)) AS active`,
  );
  const row = rows[0]!;
  return {
    stats: { totalMessages: row.total, assessmentsProcessed: row.processed, messagesGrouped: row.grouped },
    activeAssessments: row.active,
  };
}

interface BotMessageRow {
  channel: string;
  bot_id: string | null;
  user: string | null;
  text: string;
  timestamp: string;
}

function toBotMessage(row: BotMessageRow): BotMessage {
  return { channel: row.channel, bot_id: row.bot_id, user: row.user, text: row.text, timestamp: Number(row.timestamp) };
}

interface AssessmentRow {
  assessment_key: string;
  candidate_name: string;
  message_count: number;
  processed_at: Date;
}

function toProcessedAssessment(row: AssessmentRow): ProcessedAssessment {
  return {
    assessmentKey: row.assessment_key,
    candidateName: row.candidate_name,
    messageCount: row.message_count,
    processedAt: row.processed_at.toISOString(),
  };
}

/** What the monitor shows on opening: counters, the latest 50 bot messages and 20 completed assessments. */
export async function monitorSnapshot(db: Db): Promise<MonitorSnapshot> {
  const [counts, messages, assessments] = await Promise.all([
    monitorCounts(db),
    db.query<BotMessageRow>(
      `SELECT channel, bot_id, "user", text, "timestamp"::text FROM chat_bot_messages ORDER BY "timestamp" DESC, id DESC LIMIT $1`,
      [MONITOR_MESSAGE_LIMIT],
    ),
    db.query<AssessmentRow>(
      `SELECT assessment_key, candidate_name, message_count, processed_at FROM processed_assessments
       WHERE status = 'processed' ORDER BY processed_at DESC LIMIT $1`,
      [MONITOR_ASSESSMENT_LIMIT],
    ),
  ]);
  return { ...counts, messages: messages.rows.map(toBotMessage), assessments: assessments.rows.map(toProcessedAssessment) };
}

/** A bot message as Slack sent it, with the assessment it names. */
export interface IncomingBotMessage {
  eventId: string;
  channel: string;
  botId: string | null;
  user: string | null;
  text: string;
  /** Slack's ts, exact: seconds since the epoch with microseconds. */
  ts: string;
  assessmentKey: string | null;
}

/** Stores a bot message once (by event id, and by channel + ts); its row id, or null when already stored. */
export async function storeBotMessage(db: Db, message: IncomingBotMessage): Promise<{ id: string; message: BotMessage } | null> {
  const { rows } = await db.query<BotMessageRow & { id: string }>(
    `INSERT INTO chat_bot_messages (event_id, channel, bot_id, "user", text, "timestamp", assessment_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING
     RETURNING id::text, channel, bot_id, "user", text, "timestamp"::text`,
    [message.eventId, message.channel, message.botId, message.user, message.text, message.ts, message.assessmentKey],
  );
  return rows[0] ? { id: rows[0].id, message: toBotMessage(rows[0]) } : null;
}

/** The id of an assessment's latest stored message. */
export async function latestMessageId(db: Db, assessmentKey: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM chat_bot_messages WHERE assessment_key = $1', [
    assessmentKey,
  ]);
  return rows[0]?.id ?? null;
}

/** How completing a group ended: recorded, recorded as an error (no candidate), or already recorded. */
export type AssessmentOutcome =
  { kind: 'processed'; assessment: ProcessedAssessment } | { kind: 'error'; error: string } | { kind: 'already' };

/**
 * Records a complete group once: the candidate is the first name its messages give (read by
 * `candidateOf` from each text, oldest first). Serialised per key by the unique constraint.
 */
export async function recordAssessment(
  db: Db,
  assessmentKey: string,
  candidateOf: (text: string) => string | null,
): Promise<AssessmentOutcome> {
  const { rows: texts } = await db.query<{ text: string }>(
    'SELECT text FROM chat_bot_messages WHERE assessment_key = $1 ORDER BY "timestamp", id',
    [assessmentKey],
  );
  if (!texts.length) return { kind: 'already' };
  const candidate = texts.map((row) => candidateOf(row.text)).find((name) => name !== null) ?? null;
  const error = candidate ? null : `Assessment ${assessmentKey}: none of its ${texts.length} messages names a candidate`;
  const { rows } = await db.query<AssessmentRow>(
    `INSERT INTO processed_assessments (assessment_key, candidate_name, message_count, status, error)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (assessment_key) DO NOTHING
     RETURNING assessment_key, candidate_name, message_count, processed_at`,
    [assessmentKey, candidate ?? 'Unknown candidate', texts.length, candidate ? 'processed' : 'error', error],
  );
  if (!rows[0]) return { kind: 'already' };
  return error ? { kind: 'error', error } : { kind: 'processed', assessment: toProcessedAssessment(rows[0]) };
}
