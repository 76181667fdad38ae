import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { MIRROR_PAGE_SIZE } from '#machines/protocol/admin/mirror-sessions.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

/* A database of its own: the list and its total cover the whole mirror_sessions table. */
let app: FastifyInstance;
let pool: pg.Pool;
let headers: Record<string, string>;
let harness: TestApp;

/** A Mirror session with its messages (user and mirror alternating), optionally saved with a lead or part of a flow. */
async function seedSession(options: { lead?: string; flow?: string; saved?: boolean; said?: string[]; at: string }) {
  const id = randomUUID();
  const said = options.said ?? [];
  await pool.query(
    'INSERT INTO mirror_sessions (id, lead_id, flow_id, saved, turns, completed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [id, options.lead ?? null, options.flow ?? null, options.saved ?? false, said.length, said.length === 5, options.at],
  );
  for (const [index, content] of said.entries()) {
    await pool.query("INSERT INTO mirror_messages (session_id, role, content, turn) VALUES ($1, 'user', $2, $3), ($1, 'mirror', $4, $3)", [
      id,
      content,
      index + 1,
      `Reply ${index + 1}?`,
    ]);
  }
  return id;
}

let savedId: string;
let modalId: string;
let anonymousId: string;
let unsavedId: string;
let testSessionId: string;
let modalLead: string;
let savedLead: string;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  ({ headers } = await signedInAdmin(pool));
  savedLead = (await createOrUpdateLead(pool, { email: 'saved@example.com', name: 'Sam Saved' })).leadId;
  modalLead = (await createOrUpdateLead(pool, { email: 'modal@example.com', name: 'Mo Modal' })).leadId;
  const flow = await pool.query<{ id: string }>(
    "INSERT INTO flows (machine, lead_id, state, snapshot) VALUES ('mirror', $1, 'done', '{}') RETURNING id",
    [modalLead],
  );
  savedId = await seedSession({
    lead: savedLead,
    saved: true,
    said: ['Whether to promote Tom.', 'My team would feel it.'],
    at: '2026-03-03T10:00:00Z',
  });
  modalId = await seedSession({ flow: flow.rows[0]!.id, said: ['Hiring a COO or not.'], at: '2026-03-02T10:00:00Z' });
  anonymousId = await seedSession({ said: ['Closing the Lisbon office.'], at: '2026-03-01T10:00:00Z' });
  // not saved: its messages were never stored, only its length
  unsavedId = await seedSession({ at: '2026-02-28T10:00:00Z' });
  // a test lead's session: listed and counted only with test data included
  const testLead = (await createOrUpdateLead(pool, { email: 'tester@example.com', testingMode: true })).leadId;
  testSessionId = await seedSession({ lead: testLead, saved: true, said: ['Trying the funnel.'], at: '2026-03-04T10:00:00Z' });
});

afterAll(() => harness?.close());

describe('GET /api/admin/mirror-sessions', () => {
  it('lists every session the Overview counts, newest first, with its lead (saved with it, or its flow’s) and its conversation', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions', headers });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: MIRROR_PAGE_SIZE });
    expect(page.sessions.map((s: { id: string }) => s.id)).toEqual([savedId, modalId, anonymousId, unsavedId]);
    const overview = (await app.inject({ method: 'GET', url: '/api/admin/overview?period=all', headers })).json();
    expect(overview.counts.mirrorSessions).toBe(page.total);
    // test data included: the test lead's session too, on both
    const withTest = (await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions?includeTest=true', headers })).json();
    expect(withTest.sessions.map((s: { id: string }) => s.id)).toEqual([testSessionId, savedId, modalId, anonymousId, unsavedId]);
    const overviewWithTest = (await app.inject({ method: 'GET', url: '/api/admin/overview?period=all&includeTest=true', headers })).json();
    expect(overviewWithTest.counts.mirrorSessions).toBe(withTest.total);
    // from a day on, as the Overview's counter links it
    const fromMarch2 = (await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions?from=2026-03-02', headers })).json();
    expect(fromMarch2.sessions.map((s: { id: string }) => s.id)).toEqual([savedId, modalId]);
    expect(page.sessions[0]).toMatchObject({
      saved: true,
      turns: 2,
      lead: { id: savedLead, email: 'saved@example.com', name: 'Sam Saved' },
    });
    expect(page.sessions[0].messages).toEqual([
      { role: 'user', content: 'Whether to promote Tom.', turn: 1 },
      { role: 'mirror', content: 'Reply 1?', turn: 1 },
      { role: 'user', content: 'My team would feel it.', turn: 2 },
      { role: 'mirror', content: 'Reply 2?', turn: 2 },
    ]);
    expect(page.sessions[1].lead).toMatchObject({ id: modalLead, email: 'modal@example.com' });
    expect(page.sessions[2].lead).toBeNull();
    expect(page.sessions[3]).toMatchObject({ lead: null, saved: false, messages: [] });
  });

  it('shows only saved sessions when asked, pages, and names a bad query field', async () => {
    const saved = (await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions?show=saved', headers })).json();
    expect(saved.sessions.map((s: { id: string }) => s.id)).toEqual([savedId]);
    expect(saved.total).toBe(1);
    const beyond = (await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions?page=2', headers })).json();
    expect(beyond).toMatchObject({ sessions: [], total: 4, page: 2 });
    const bad = await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions?show=everything', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('show');
  });

  it('is for admins only', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/admin/mirror-sessions' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('Tom');
  });
});
