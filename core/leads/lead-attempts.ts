import type pg from 'pg';
import type { GradingRequest } from '#machines/assessment-flow/assessment-flow.effects.js';
import type { GradeInput, GradeResult } from '#machines/grading/index.js';
import { readSignedLink, signLink } from '../email/follow-up-signing.js';
import type { NewJob } from '../queues/outbox.js';

/*
 * The one writer of lead_attempts (core/db/table-owners.ts): proof before trust (decision 0044).
 * An address typed into a capture identifies a lead but proves nothing. A visitor who captures a
 * known address without having proven it gets an unconfirmed attempt beside the lead: their flow
 * is not bound to the lead, its graded result and the emails it asked for wait here, and the
 * address is sent one confirmation link. Following the link gives the attempt to the lead.
 */

/** How long a confirmation link works. */
export const CONFIRM_LINK_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An attempt still waiting for its address to be confirmed. */
export interface OpenAttempt {
  id: string;
  leadId: string;
}

/** What a grading job would have stored for the lead, kept until the address is confirmed. */
export interface HeldGrading {
  request: Pick<GradingRequest, 'assessment' | 'survey' | 'diagnosticId'>;
  graded: GradeInput;
  result: GradeResult;
}

/** A confirmed attempt, taken in the confirming transaction: what is now the lead's. */
export interface ConfirmedAttempt {
  id: string;
  leadId: string;
  flowId: string;
  graded: HeldGrading | null;
  heldJobs: NewJob[];
}

/**
 * True when `visitorId` has already shown it acts for the lead: one of its flows is bound to it
 * (the browser that created the lead, or one that followed a token, resume or confirmation link).
 */
export async function visitorActsForLead(db: pg.ClientBase, visitorId: string | null, leadId: string): Promise<boolean> {
  if (!visitorId) return false;
  const found = await db.query('SELECT 1 FROM flows WHERE visitor_id = $1 AND lead_id = $2 LIMIT 1', [visitorId, leadId]);
  return found.rowCount === 1;
}

/** Records (or, for a flow capturing again, renews) the unconfirmed attempt of `flowId` on the lead. */
export async function recordAttempt(
  db: pg.ClientBase,
  attempt: { leadId: string; flowId: string; name: string; email: string },
): Promise<string> {
  const row = await db.query<{ id: string }>(
    `INSERT INTO lead_attempts (lead_id, flow_id, name, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (flow_id) DO UPDATE SET lead_id = EXCLUDED.lead_id, name = EXCLUDED.name, email = EXCLUDED.email
     RETURNING id`,
    [attempt.leadId, attempt.flowId, attempt.name, attempt.email],
  );
  return row.rows[0]!.id;
}

/** A flow that captured an address its visitor acts for is no attempt any more. */
export async function dropOpenAttempt(db: pg.ClientBase, flowId: string): Promise<void> {
  await db.query('DELETE FROM lead_attempts WHERE flow_id = $1 AND confirmed_at IS NULL', [flowId]);
}

/**
 * The open attempt of the flow whose id is `flowId` (SQL), as a JSON OpenAttempt or NULL: what
 * openAttemptOf reads, and what the engine reads with the flow it locks, sparing every effect
 * that asks a statement of its own.
 */
export function openAttemptJson(flowId: string): string {
  return `(SELECT json_build_object('id', a.id, 'leadId', a.lead_id) FROM lead_attempts a
           WHERE a.flow_id = ${flowId} AND a.confirmed_at IS NULL)`;
}

/** The flow's attempt that still waits for confirmation, or null (the flow acts for its lead). */
export async function openAttemptOf(db: pg.ClientBase, flowId: string): Promise<OpenAttempt | null> {
  const found = await db.query<{ attempt: OpenAttempt | null }>({
    name: 'open-lead-attempt',
    text: `SELECT ${openAttemptJson('$1')} AS attempt`,
    values: [flowId],
  });
  return found.rows[0]!.attempt;
}

/** Keeps a job the flow asked for (an email to the address) until the address is confirmed. */
export async function holdJob(db: pg.ClientBase, attemptId: string, job: NewJob): Promise<void> {
  await db.query('UPDATE lead_attempts SET held_jobs = held_jobs || jsonb_build_array($2::jsonb) WHERE id = $1', [
    attemptId,
    JSON.stringify(job),
  ]);
}

/** Keeps the attempt's graded result instead of storing it for the lead. */
export async function holdGrading(db: pg.ClientBase, attemptId: string, grading: HeldGrading): Promise<void> {
  await db.query('UPDATE lead_attempts SET graded = $2 WHERE id = $1', [attemptId, JSON.stringify(grading)]);
}

/**
 * Claims the attempt's one confirmation email: true the first time only, so an attempt sends its
 * address at most one ("Was this you?"); the per-recipient limit bounds attempts together.
 */
export async function claimConfirmationEmail(db: pg.ClientBase, attemptId: string): Promise<boolean> {
  const claimed = await db.query(
    'UPDATE lead_attempts SET confirmation_sent_at = now() WHERE id = $1 AND confirmation_sent_at IS NULL AND confirmed_at IS NULL',
    [attemptId],
  );
  return claimed.rowCount === 1;
}

/** The page that confirms `attemptId`, signed; it works CONFIRM_LINK_DAYS from `now`. */
export async function confirmLink(db: Pick<pg.Pool, 'query'>, publicUrl: string, attemptId: string, now = new Date()): Promise<string> {
  const expiresAt = Math.floor((now.getTime() + CONFIRM_LINK_DAYS * DAY_MS) / 1000);
  const token = await signLink(db, 'confirm_link', [attemptId, expiresAt.toString(36)]);
  return `${publicUrl}/confirm?token=${encodeURIComponent(token)}`;
}

/** What a confirmation token says: the attempt it confirms, that it expired, or nothing. */
export type ConfirmCheck = { status: 'valid'; attemptId: string } | { status: 'expired'; expiredAt: Date } | { status: 'invalid' };

/** Checks a confirmation token's signature, then its expiry. */
export async function checkConfirmToken(db: Pick<pg.Pool, 'query'>, token: string, now = new Date()): Promise<ConfirmCheck> {
  const [attemptId, expires] = (await readSignedLink(db, 'confirm_link', token, 2)) ?? [];
  if (!attemptId || !expires || !UUID.test(attemptId) || !/^[0-9a-z]{1,12}$/.test(expires)) return { status: 'invalid' };
  const expiredAt = new Date(parseInt(expires, 36) * 1000);
  return expiredAt.getTime() <= now.getTime() ? { status: 'expired', expiredAt } : { status: 'valid', attemptId };
}

/**
 * Marks the attempt confirmed, once: answers what it held, or null when it is unknown, already
 * confirmed or gone with its lead. The row is locked, so of two clicks one confirms.
 */
export async function confirmAttempt(db: pg.ClientBase, attemptId: string): Promise<ConfirmedAttempt | null> {
  const confirmed = await db.query<{ id: string; lead_id: string; flow_id: string; graded: HeldGrading | null; held_jobs: NewJob[] }>(
    `UPDATE lead_attempts SET confirmed_at = now() WHERE id = $1 AND confirmed_at IS NULL
     RETURNING id, lead_id, flow_id, graded, held_jobs`,
    [attemptId],
  );
  const row = confirmed.rows[0];
  return row ? { id: row.id, leadId: row.lead_id, flowId: row.flow_id, graded: row.graded, heldJobs: row.held_jobs } : null;
}

/** One attempt as the coach's lead page lists it (machines/protocol/admin/leads.ts, `attempts`). */
export interface LeadAttemptRow {
  id: string;
  name: string;
  email: string;
  tier: 'book_call' | 'homework' | 'nurture' | null;
  archetype: string | null;
  qualification_score: number | null;
  confirmation_sent_at: Date | null;
  confirmed_at: Date | null;
  created_at: Date;
}

/** The lead's attempts, newest first, for the coach's lead page. */
export async function attemptsOfLead(db: Pick<pg.Pool, 'query'>, leadId: string): Promise<LeadAttemptRow[]> {
  const rows = await db.query<LeadAttemptRow>(
    `SELECT id, name, email, graded->'result'->>'tier' AS tier, graded->'result'->>'archetype' AS archetype,
            (graded->'result'->>'totalScore')::float8 AS qualification_score, confirmation_sent_at, confirmed_at, created_at
     FROM lead_attempts WHERE lead_id = $1 ORDER BY created_at DESC, id LIMIT 50`,
    [leadId],
  );
  return rows.rows;
}
