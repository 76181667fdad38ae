import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { scratchDatabase } from '#test/helpers.js';
import { readSiteSettings } from '../site/settings.js';
import { coachAddress } from './coach.js';
import { leadEmailContext } from './lead-email-context.js';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

const CONFIG = { COACH_EMAIL: undefined, EMAIL_FROM: 'from@example.com' };

async function database() {
  const pool = new pg.Pool({ connectionString: await scratchDatabase(), max: 2 });
  pools.push(pool);
  const lead = await pool.query<{ lead_id: string }>(
    "INSERT INTO leads (email, name) VALUES ('lead@example.com', 'Lee') RETURNING lead_id",
  );
  return { pool, leadId: lead.rows[0]!.lead_id };
}

describe('leadEmailContext: what the results email is written with, in one statement', () => {
  it('reads what readSiteSettings and coachAddress read, with no admin and no stored settings', async () => {
    const { pool, leadId } = await database();
    const client = await pool.connect();
    const context = await leadEmailContext(client, leadId, CONFIG).finally(() => client.release());
    expect(context).toEqual({ lead: { email: 'lead@example.com', name: 'Lee' }, replyTo: 'from@example.com', site: DEFAULT_SITE_SETTINGS });
    expect(context.replyTo).toBe(await coachAddress(pool, CONFIG));
  });

  it('gives the first admin as the reply-to and the stored settings; COACH_EMAIL before the admin', async () => {
    const { pool, leadId } = await database();
    await pool.query("INSERT INTO users (email, password_hash, role, created_at) VALUES ('later@example.com', 'x', 'admin', now())");
    await pool.query(
      "INSERT INTO users (email, password_hash, role, created_at) VALUES ('first@example.com', 'x', 'admin', now() - interval '1 day')",
    );
    const stored = { ...DEFAULT_SITE_SETTINGS, contact: { ...DEFAULT_SITE_SETTINGS.contact, name: 'Coach Kim' } };
    await pool.query('INSERT INTO site_settings (settings) VALUES ($1)', [JSON.stringify(stored)]);
    const client = await pool.connect();
    try {
      const context = await leadEmailContext(client, leadId, CONFIG);
      expect(context.replyTo).toBe('first@example.com');
      expect(context.replyTo).toBe(await coachAddress(client, CONFIG));
      expect(context.site).toEqual(await readSiteSettings(client));
      expect(context.site.contact.name).toBe('Coach Kim');
      const withCoach = { ...CONFIG, COACH_EMAIL: 'coach@example.com' };
      expect((await leadEmailContext(client, leadId, withCoach)).replyTo).toBe('coach@example.com');
    } finally {
      client.release();
    }
  });

  it('answers no lead for a deleted one, with the rest as ever', async () => {
    const { pool, leadId } = await database();
    await pool.query('DELETE FROM leads WHERE lead_id = $1', [leadId]);
    const client = await pool.connect();
    try {
      expect(await leadEmailContext(client, leadId, CONFIG)).toEqual({
        lead: null,
        replyTo: 'from@example.com',
        site: DEFAULT_SITE_SETTINGS,
      });
    } finally {
      client.release();
    }
  });
});
