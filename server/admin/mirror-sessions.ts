import type pg from 'pg';
import { MIRROR_PAGE_SIZE, type MirrorListQuery, type MirrorPage } from '#machines/protocol/admin/mirror-sessions.js';
import { bind, mirrorSessionsIn, whereAll } from '#core/leads/lead-scope.js';

/**
 * The Mirror sessions the Overview counts for the same scope, newest first, each with its lead and
 * its conversation (five exchanges at most, so a page stays small). Messages are stored only for a
 * saved session: an unsaved one lists its length alone. The page's sessions are chosen first, then
 * their lead and messages read: rows skipped by OFFSET are never built (page 200: 237 ms at p95 at
 * 100,000 leads before).
 */
export async function listMirrorSessions(db: Pick<pg.Pool, 'query'>, query: MirrorListQuery): Promise<MirrorPage> {
  const params: unknown[] = [];
  const conditions = mirrorSessionsIn({ from: query.from ?? null, to: null, tz: query.tz, includeTest: query.includeTest }, params, 's');
  if (query.show === 'saved') conditions.push('s.saved');
  const where = whereAll(conditions);
  const countParams = [...params];
  const offset = (query.page - 1) * MIRROR_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    db.query<MirrorPage['sessions'][number]>(
      `WITH page AS (
         SELECT s.id FROM mirror_sessions s ${where}
         ORDER BY s.created_at DESC, s.id
         LIMIT ${bind(params, MIRROR_PAGE_SIZE)} OFFSET ${bind(params, offset)}
       )
       SELECT s.id, s.created_at, s.turns::int AS turns, s.completed, s.saved,
              CASE WHEN l.lead_id IS NULL THEN NULL ELSE json_build_object('id', l.lead_id, 'email', l.email, 'name', l.name) END AS lead,
              coalesce((SELECT json_agg(json_build_object('role', m.role, 'content', m.content, 'turn', m.turn) ORDER BY m.id)
                        FROM mirror_messages m WHERE m.session_id = s.id), '[]') AS messages
       FROM page JOIN mirror_sessions s USING (id)
       LEFT JOIN flows f ON f.id = s.flow_id
       LEFT JOIN leads l ON l.lead_id = coalesce(s.lead_id, f.lead_id)
       ORDER BY s.created_at DESC, s.id`,
      params,
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM mirror_sessions s ${where}`, countParams),
  ]);
  return { sessions: rows.rows, total: count.rows[0]!.total, page: query.page, pageSize: MIRROR_PAGE_SIZE };
}
