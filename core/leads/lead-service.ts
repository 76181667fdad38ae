import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { queueMarketingSync } from '../integrations/marketing-sync.js';
import type { LeadSource } from '#machines/protocol/common.js';
import { refreshLeadFacts } from './lead-facts.js';

// The one writer of leads (core/db/table-owners.ts): capture, the test purge and the admin's erase.

/** The name a lead gets when none is given. */
export const DEFAULT_LEAD_NAME = 'Community Member';
/** The source a lead gets when none is given. */
const DEFAULT_LEAD_SOURCE = 'website';
/** Tags of a lead created in testing mode. */
export const TEST_TAGS = ['test', 'testing-phase'] as const;

export interface LeadInput {
  email: string;
  name?: string | null;
  source?: string | null;
  testingMode?: boolean;
}

export interface LeadRecord {
  leadId: string;
  email: string;
  name: string;
  source: string;
  tags: string[];
  created: boolean;
}

/** The leads table's source for a flow's session source: a direct visitor came from the website. */
export function leadSourceOf(source: LeadSource): string {
  return source === 'direct' ? DEFAULT_LEAD_SOURCE : source;
}

interface LeadRow {
  lead_id: string;
  email: string;
  name: string;
  source: string;
  tags: string[];
}

function toRecord(row: LeadRow, created: boolean): LeadRecord {
  return { leadId: row.lead_id, email: row.email, name: row.name, source: row.source, tags: row.tags, created };
}

/**
 * createOrUpdateLead: outside testing mode an address already known
 * (case-insensitively) returns the existing lead, whose name is filled in if it was the default;
 * testing mode always creates a new lead tagged test and testing-phase. The insert relies on the
 * partial unique index, so two requests racing with one address still make one lead.
 * `actsForExisting` says whether the caller has proven the known address (decision 0044): when it
 * has not, the existing lead is returned untouched and `trusted` is false.
 */
export async function createOrUpdateLead(
  db: pg.ClientBase | pg.Pool,
  input: LeadInput,
  actsForExisting: (leadId: string) => Promise<boolean> = () => Promise.resolve(true),
): Promise<LeadRecord & { trusted: boolean }> {
  const email = input.email.trim();
  const name = input.name?.trim() || DEFAULT_LEAD_NAME;
  const source = input.source?.trim() || DEFAULT_LEAD_SOURCE;
  if (input.testingMode) {
    const inserted = await db.query<LeadRow>(
      'INSERT INTO leads (email, name, source, tags) VALUES ($1, $2, $3, $4) RETURNING lead_id, email, name, source, tags',
      [email, name, source, [...TEST_TAGS]],
    );
    await refreshLeadFacts(db, [inserted.rows[0]!.lead_id]);
    return { ...toRecord(inserted.rows[0]!, true), trusted: true };
  }
  const inserted = await db.query<LeadRow>(
    `INSERT INTO leads (email, name, source) VALUES ($1, $2, $3)
     ON CONFLICT (lower(email)) WHERE NOT ('test' = ANY (tags)) DO NOTHING
     RETURNING lead_id, email, name, source, tags`,
    [email, name, source],
  );
  if (inserted.rows[0]) {
    await refreshLeadFacts(db, [inserted.rows[0].lead_id]); // a new lead is counted from its capture on (decision 0055)
    return { ...toRecord(inserted.rows[0], true), trusted: true };
  }
  const known = await db.query<LeadRow>(
    "SELECT lead_id, email, name, source, tags FROM leads WHERE lower(email) = lower($1) AND NOT ('test' = ANY (tags))",
    [email],
  );
  if (!(await actsForExisting(known.rows[0]!.lead_id))) return { ...toRecord(known.rows[0]!, false), trusted: false };
  const existing = await db.query<LeadRow>(
    `UPDATE leads SET name = CASE WHEN name = $2 AND $3 <> $2 THEN $3 ELSE name END
     WHERE lower(email) = lower($1) AND NOT ('test' = ANY (tags))
     RETURNING lead_id, email, name, source, tags`,
    [email, DEFAULT_LEAD_NAME, name],
  );
  return { ...toRecord(existing.rows[0]!, false), trusted: true };
}

/**
 * The one setter of email_proven_at: a link mailed to the lead's address was followed (a token,
 * resume or confirmation link), so whoever followed it reads that inbox (decision 0044). The first
 * proof is kept, and it is when a lead joins the coach's email-marketing list (decision 0048): its
 * sync job is written in the same transaction.
 */
export async function markEmailProven(db: pg.ClientBase | pg.Pool, leadId: string): Promise<void> {
  await prove(db, 'lead_id = $1', leadId);
}

/** markEmailProven for the lead a flow is bound to (a resume link names the flow), if any. */
export async function markFlowLeadEmailProven(db: pg.ClientBase | pg.Pool, flowId: string): Promise<void> {
  await prove(db, 'lead_id = (SELECT lead_id FROM flows WHERE id = $1)', flowId);
}

async function prove(db: pg.ClientBase | pg.Pool, which: string, id: string): Promise<void> {
  const run = async (client: pg.ClientBase) => {
    const proven = await client.query<{ lead_id: string }>(
      `UPDATE leads SET email_proven_at = now() WHERE ${which} AND email_proven_at IS NULL RETURNING lead_id`,
      [id],
    );
    await queueMarketingSync(client, ...proven.rows.map((row) => row.lead_id));
  };
  // a pool (a link followed outside any flow's transaction): the proof and its sync commit together
  await ('totalCount' in db ? inTransaction(db, run) : run(db));
}

/**
 * The admin's erase of one lead (server/admin/leads-queries.ts, in its transaction): everything
 * holding its lead_id cascades from this row.
 */
export async function deleteLeadRow(client: pg.ClientBase, leadId: string): Promise<void> {
  await client.query('DELETE FROM leads WHERE lead_id = $1', [leadId]);
}

/** Testing mode's clean-up: deletes test-tagged leads created in the last 7 days; answers how many. */
export async function purgeTestLeads(db: pg.Pool | pg.ClientBase): Promise<number> {
  const deleted = await db.query("DELETE FROM leads WHERE $1 = ANY (tags) AND created_at > now() - interval '7 days'", [TEST_TAGS[0]]);
  return deleted.rowCount ?? 0;
}
