import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import type { Logger } from 'pino';
import { MIRROR_TURN_LIMIT } from '#machines/protocol/mirror.js';

// The one writer of mirror_sessions and mirror_messages (core/db/table-owners.ts).

/** One exchange of a Mirror session as it is recorded. */
export interface MirrorExchange {
  sessionId: string;
  /** The flow the session runs in; null for the named HTTP call. */
  flowId: string | null;
  leadId: string | null;
  /** The visitor the session belongs to: no other visitor's exchange is ever recorded under it. */
  visitorId: string | null;
  /** The exchange's number, 1-5. */
  turn: number;
  isComplete: boolean;
  /** 'Save this session (optional)': only then are the messages themselves stored. */
  save: boolean;
  /** The visitor's message this exchange answered. */
  userMessage: string | null;
  /** What the Mirror showed (its reply, or the fallback). */
  reply: string;
}

type Log = Pick<Logger, 'warn'>;

// The message only: a database error's detail can echo the row, and with it the visitor's words.
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Records the session (turns, completion, the save choice) and, when saving, the exchange's two
 * messages, inside the caller's transaction. A session id already used by another flow or visitor
 * is left alone. A storage failure is rolled back to a savepoint and only logged, so the
 * reply itself is never lost with it. Returns whether it was recorded.
 */
export async function recordExchange(client: pg.ClientBase, exchange: MirrorExchange, log: Log): Promise<boolean> {
  await client.query('SAVEPOINT mirror_record');
  try {
    const session = await client.query(
      `INSERT INTO mirror_sessions (id, flow_id, lead_id, saved, turns, completed, visitor_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET
         lead_id = COALESCE(mirror_sessions.lead_id, EXCLUDED.lead_id),
         -- turns stored while saving stay stored, so the session stays marked saved
         saved = mirror_sessions.saved OR EXCLUDED.saved,
         turns = GREATEST(mirror_sessions.turns, EXCLUDED.turns),
         completed = mirror_sessions.completed OR EXCLUDED.completed
       WHERE mirror_sessions.flow_id IS NOT DISTINCT FROM EXCLUDED.flow_id
         AND mirror_sessions.visitor_id IS NOT DISTINCT FROM EXCLUDED.visitor_id
       RETURNING id`,
      [
        exchange.sessionId,
        exchange.flowId,
        exchange.leadId,
        exchange.save,
        exchange.turn,
        exchange.isComplete || exchange.turn >= MIRROR_TURN_LIMIT,
        exchange.visitorId,
      ],
    );
    if (!session.rowCount) {
      await client.query('RELEASE SAVEPOINT mirror_record');
      log.warn({ sessionId: exchange.sessionId }, 'mirror session belongs to another flow or visitor; exchange not recorded');
      return false;
    }
    if (exchange.save) {
      // A repeated exchange (a retried call) finds its turn already stored.
      await client.query(
        `INSERT INTO mirror_messages (session_id, role, content, turn)
         SELECT $1, m.role, m.content, $2
         FROM (VALUES (1, 'user', $3::text), (2, 'mirror', $4::text)) AS m(ord, role, content)
         WHERE m.content IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM mirror_messages WHERE session_id = $1 AND turn = $2 AND role = m.role)
         ORDER BY m.ord`,
        [exchange.sessionId, exchange.turn, exchange.userMessage, exchange.reply],
      );
    }
    await client.query('RELEASE SAVEPOINT mirror_record');
    return true;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT mirror_record');
    log.warn({ reason: reasonOf(error), sessionId: exchange.sessionId }, 'mirror exchange not stored');
    return false;
  }
}

/** recordExchange in a transaction of its own (the named HTTP call, which has no flow to apply). */
export async function storeExchange(pool: pg.Pool, exchange: MirrorExchange, log: Log): Promise<boolean> {
  try {
    return await inTransaction(pool, (client) => recordExchange(client, exchange, log));
  } catch (error) {
    log.warn({ reason: reasonOf(error), sessionId: exchange.sessionId }, 'mirror exchange not stored');
    return false;
  }
}

/**
 * A lead captured after a saved Mirror session: the session becomes the lead's, only when it is
 * the visitor's own, saved, and not yet anyone's (another id changes nothing).
 */
export async function giveSavedSessionToLead(db: pg.Pool, sessionId: string, visitorId: string, leadId: string): Promise<void> {
  await db.query('UPDATE mirror_sessions SET lead_id = $1 WHERE id = $2 AND visitor_id = $3 AND saved AND lead_id IS NULL', [
    leadId,
    sessionId,
    visitorId,
  ]);
}
