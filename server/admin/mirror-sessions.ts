import type pg from 'pg';
import { z } from 'zod';

/** Sessions on one page of the admin's Mirror list. */
export const MIRROR_PAGE_SIZE = 20;

export const mirrorListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** saved: only the sessions a visitor kept (with the email form, or by going on to the assessment). */
  show: z.enum(['all', 'saved']).default('all'),
});
export type MirrorListQuery = z.infer<typeof mirrorListQuerySchema>;

const mirrorMessageSchema = z.object({ role: z.enum(['user', 'mirror']), content: z.string(), turn: z.number().int() });

const mirrorSessionRowSchema = z.object({
  id: z.uuid(),
  created_at: z.date(),
  turns: z.number().int(),
  completed: z.boolean(),
  saved: z.boolean(),
  /** The lead the session belongs to: saved with it, or the lead of the assessment it was part of. */
  lead: z.object({ id: z.uuid(), email: z.string(), name: z.string() }).nullable(),
  messages: z.array(mirrorMessageSchema),
});
type MirrorSessionRow = z.infer<typeof mirrorSessionRowSchema>;

export const mirrorPageSchema = z.object({
  sessions: z.array(mirrorSessionRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/**
 * The Mirror sessions the Overview counts, newest first, each with its lead and its conversation
 * (five exchanges at most, so a page stays small). Messages are stored only for a saved session:
 * an unsaved one lists its length alone.
 */
export async function listMirrorSessions(db: Pick<pg.Pool, 'query'>, query: MirrorListQuery): Promise<z.infer<typeof mirrorPageSchema>> {
  const where = query.show === 'saved' ? 's.saved' : 'true';
  const offset = (query.page - 1) * MIRROR_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    db.query<MirrorSessionRow>(
      `SELECT s.id, s.created_at, s.turns::int AS turns, s.completed, s.saved,
              CASE WHEN l.lead_id IS NULL THEN NULL ELSE json_build_object('id', l.lead_id, 'email', l.email, 'name', l.name) END AS lead,
              coalesce((SELECT json_agg(json_build_object('role', m.role, 'content', m.content, 'turn', m.turn) ORDER BY m.id)
                        FROM mirror_messages m WHERE m.session_id = s.id), '[]') AS messages
       FROM mirror_sessions s
       LEFT JOIN flows f ON f.id = s.flow_id
       LEFT JOIN leads l ON l.lead_id = coalesce(s.lead_id, f.lead_id)
       WHERE ${where}
       ORDER BY s.created_at DESC, s.id
       LIMIT $1 OFFSET $2`,
      [MIRROR_PAGE_SIZE, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM mirror_sessions s WHERE ${where}`),
  ]);
  return { sessions: rows.rows, total: count.rows[0]!.total, page: query.page, pageSize: MIRROR_PAGE_SIZE };
}
