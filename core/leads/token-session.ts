import type pg from 'pg';
import type { TokenCheck } from '#machines/protocol/assessment-flow.js';
import type { KnownSession } from '#machines/protocol/common.js';
import { recordLinkVisit } from './interactions.js';
import { createOrUpdateLead, markEmailProven } from './lead-service.js';
import { checkToken } from './tokens.js';

/**
 * initializeFromToken: checks the link's token and, when it is valid, makes sure a lead stands
 * behind it (the token's own, or one made from the email it carries) and records the visit as a
 * website_visit interaction with the token and source.
 */
export async function initializeFromToken(pool: pg.Pool, token: string): Promise<{ check: TokenCheck; session: KnownSession | null }> {
  const check = await checkToken(pool, token);
  if (check.status !== 'valid') return { check, session: null };
  let { leadId } = check;
  if (!leadId && check.email) {
    leadId = (await createOrUpdateLead(pool, { email: check.email, name: check.name, source: check.source })).leadId;
  }
  if (leadId) {
    // the link was mailed to the lead's address: following it proves the address (decision 0044)
    await markEmailProven(pool, leadId);
    await recordLinkVisit(pool, leadId, token, check.source);
  }
  const resolved: TokenCheck = { ...check, leadId };
  return { check: resolved, session: { leadId, email: check.email, name: check.name, source: check.source, leadToken: token } };
}
