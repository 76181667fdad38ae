import type pg from 'pg';

// The one writer of interactions, a lead's activity lines (core/db/table-owners.ts).

/** A lead opened the assessment from a personal link: a website_visit line with the token and its source. */
export async function recordLinkVisit(db: pg.Pool, leadId: string, token: string, source: string): Promise<void> {
  await db.query("INSERT INTO interactions (lead_id, type, content, metadata) VALUES ($1, 'website_visit', $2, $3)", [
    leadId,
    'Opened the assessment from a personal link',
    { token, source },
  ]);
}

/** A line for each lead a re-grade moved to another tier, in the re-grade's transaction. */
export async function recordRegradeMoves(
  client: pg.ClientBase,
  moves: { leadId: string; content: string; metadata: Record<string, unknown> }[],
): Promise<void> {
  await client.query(
    `INSERT INTO interactions (lead_id, type, content, metadata)
     SELECT m.lead_id, 'regraded', m.content, m.metadata FROM jsonb_to_recordset($1) AS m(lead_id uuid, content text, metadata jsonb)`,
    [JSON.stringify(moves.map(({ leadId, content, metadata }) => ({ lead_id: leadId, content, metadata })))],
  );
}
