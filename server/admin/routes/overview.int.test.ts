import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import type { Tier } from '#machines/protocol/common.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '#test/admin-session.js';
import { seedOutcome } from '#test/outcomes.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { SESSION_COOKIE } from '../../auth/sessions.js';
import { storeProgressFromEvents } from '#test/flow-progress.js';
import { refreshAllLeadFacts } from '#core/leads/lead-facts.js';

/*
 * The overview's funnel and new-leads chart, and the visit counting that feeds it. A database of
 * its own: every number here counts whole tables.
 */

const DAY = 86_400_000;
/**
 * UTC+14 and UTC-11: at any hour, every instant falls on another calendar day than in UTC in at
 * least one of them, so grouping or bounding by UTC days fails one of the two.
 */
const EAST = 'Pacific/Kiritimati';
const WEST = 'Pacific/Pago_Pago';

let app: FastifyInstance;
let pool: pg.Pool;
let cookie: string;
let harness: TestApp;

/** When each seeded lead was created. */
const seededAt: Date[] = [];
const startedAt = Date.now();

function newIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 250) + 1}`;
}

async function asAdmin(options: InjectOptions) {
  // these fixtures write leads, results and payments directly, past the owners that keep each lead's summary
  await refreshAllLeadFacts(pool);
  return app.inject({ ...options, headers: { ...options.headers, cookie: `${SESSION_COOKIE}=${cookie}` } });
}

async function funnel(query: string) {
  const response = await asAdmin({ method: 'GET', url: `/api/admin/overview/funnel?${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The calendar day of an instant in a time zone, worked out by Intl rather than PostgreSQL. */
function localDay(instant: Date | number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** The day `days` after an ISO day. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

async function insertLead(ageMs: number, tier: Tier | null = null, tags: string[] = []): Promise<string> {
  const createdAt = new Date(startedAt - ageMs);
  seededAt.push(createdAt);
  const { rows } = await pool.query<{ lead_id: string }>(
    'INSERT INTO leads (email, tags, created_at) VALUES ($1, $2, $3) RETURNING lead_id',
    [`lead-${randomBytes(6).toString('hex')}@example.com`, tags, createdAt],
  );
  const leadId = rows[0]!.lead_id;
  if (tier) await seedOutcome(pool, leadId, { tier, createdAt });
  return leadId;
}

async function diagnosticResult(leadId: string) {
  const diagnostic = await pool.query(
    "INSERT INTO diagnostics (lead_id, bank_version, status, completed_at) VALUES ($1, '2.0.0', 'completed', now()) RETURNING id",
    [leadId],
  );
  await pool.query(
    `INSERT INTO diagnostic_results (diagnostic_id, lead_id, scores, archetype, narrative, bank_version, grading_version)
     VALUES ($1, $2, '{}', 'Visionary Firebrand', 'A narrative.', '2.0.0', '1')`,
    [diagnostic.rows[0].id, leadId],
  );
}

async function surveyResponse(leadId: string) {
  await pool.query("INSERT INTO survey_responses (lead_id, answers) VALUES ($1, '{}')", [leadId]);
}

/** A flow of the lead that applied these events, in order. */
async function flowEvents(leadId: string, types: string[]) {
  const flow = await pool.query(
    "INSERT INTO flows (machine, lead_id, state, snapshot) VALUES ('assessmentFlow', $1, 'survey', '{}') RETURNING id",
    [leadId],
  );
  for (const [index, type] of types.entries()) {
    await pool.query("INSERT INTO flow_events (flow_id, seq, type, origin, state_after) VALUES ($1, $2, $3, 'client', 'survey')", [
      flow.rows[0].id,
      index + 1,
      type,
    ]);
  }
  await storeProgressFromEvents(pool); // stored as an older build would have: its row learns its progress from its events
}

async function payment(
  leadId: string,
  purpose: 'deposit' | 'paid_homework',
  status: 'succeeded' | 'refunded' | 'pending',
  { testMode = false, flowId = null }: { testMode?: boolean; flowId?: string | null } = {},
) {
  await pool.query(
    `INSERT INTO payment_tracking (payment_intent_id, lead_id, flow_id, purpose, amount_cents, status, test_mode, refunded_at)
     VALUES ($1, $2, $3, $4, 25000, $5, $6, CASE WHEN $5 = 'refunded' THEN now() END)`,
    [`pi_${randomBytes(8).toString('hex')}`, leadId, flowId, purpose, status, testMode],
  );
}

async function insertVisit(ageMs: number) {
  const at = new Date(startedAt - ageMs);
  await pool.query(
    "INSERT INTO site_visits (visitor_id, day, path, created_at) VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, '/', $2)",
    [randomUUID(), at],
  );
}

function postVisit(payload: unknown, remoteAddress = newIp()) {
  return app.inject({ method: 'POST', url: '/api/visits', payload: payload as InjectOptions['payload'], remoteAddress });
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true });
  ({ app, pool } = harness);
  ({ cookie } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

describe('GET /api/admin/overview/funnel', () => {
  it('answers zeros and today alone before anything happened', async () => {
    const empty = await funnel('period=all&tz=UTC');
    const today = localDay(Date.now(), 'UTC');
    expect(empty).toEqual({
      period: 'all',
      timeZone: 'UTC',
      includeTest: false,
      from: today,
      to: today,
      funnel: {
        visits: 0,
        captured: 0,
        diagnosticDone: 0,
        surveyDone: 0,
        tiers: { book_call: 0, homework: 0, nurture: 0 },
        ungraded: 0,
        depositsPaid: 0,
        sessionsBooked: 0,
        revenueCents: 0,
      },
      leadsPerDay: { bucket: 'day', bars: [{ start: today, leads: 0 }] },
    });
  });

  it('follows the leads captured in the period through each step, counting each lead once', async () => {
    const hour = 3_600_000;
    // within the last 7 days (the oldest five days back, well inside the 7 calendar days in any zone)
    const paid = await insertLead(1 * DAY, 'book_call');
    await diagnosticResult(paid);
    await surveyResponse(paid);
    // the provider reported its session booked (the deposit's flow's path says so)
    const bookedFlow = await pool.query(
      `INSERT INTO flows (machine, lead_id, state, snapshot)
       VALUES ('assessmentFlow', $1, 'payment_success.booked', '{"context":{"completedPath":{"kind":"deposit_paid","booking":"booked"}}}')
       RETURNING id`,
      [paid],
    );
    await payment(paid, 'deposit', 'succeeded', { flowId: bookedFlow.rows[0].id });
    const diagnosedOnly = await insertLead(2 * DAY);
    await flowEvents(diagnosedOnly, ['CAPTURE_SUBMIT', 'DIAGNOSTIC_COMPLETED']);
    const awaitingGrade = await insertLead(3 * DAY);
    await flowEvents(awaitingGrade, ['DIAGNOSTIC_COMPLETED', 'SURVEY_SUBMITTED']);
    const refunded = await insertLead(4 * DAY, 'homework');
    await surveyResponse(refunded);
    await payment(refunded, 'deposit', 'refunded');
    const nurtured = await insertLead(5 * DAY, 'nurture');
    await surveyResponse(nurtured);
    await payment(nurtured, 'paid_homework', 'succeeded');
    await insertLead(6 * hour);
    // within the last 30 days: two succeeded deposits and two surveys are still one lead
    const twice = await insertLead(20 * DAY, 'book_call');
    await surveyResponse(twice);
    await surveyResponse(twice);
    await payment(twice, 'deposit', 'succeeded');
    await payment(twice, 'deposit', 'succeeded');
    await payment(twice, 'deposit', 'pending');
    // older than 30 days
    const old = await insertLead(60 * DAY, 'book_call');
    await surveyResponse(old);
    for (const age of [1 * hour, 2 * DAY, 3 * DAY, 10 * DAY, 40 * DAY]) await insertVisit(age);

    expect((await funnel('period=7d&tz=UTC')).funnel).toEqual({
      visits: 3,
      captured: 6,
      diagnosticDone: 5,
      surveyDone: 4,
      tiers: { book_call: 1, homework: 1, nurture: 1 },
      ungraded: 1,
      // the deposit and the paid homework; the refunded deposit is not counted
      depositsPaid: 2,
      sessionsBooked: 1,
      revenueCents: 50_000,
    });
    expect((await funnel('period=30d&tz=UTC')).funnel).toEqual({
      visits: 4,
      captured: 7,
      diagnosticDone: 6,
      surveyDone: 5,
      tiers: { book_call: 2, homework: 1, nurture: 1 },
      ungraded: 1,
      // a lead who paid twice counts once, and brings in both payments
      depositsPaid: 3,
      sessionsBooked: 1,
      revenueCents: 100_000,
    });
    expect((await funnel('period=all&tz=UTC')).funnel).toEqual({
      visits: 5,
      captured: 8,
      diagnosticDone: 7,
      surveyDone: 6,
      tiers: { book_call: 3, homework: 1, nurture: 1 },
      ungraded: 1,
      depositsPaid: 3,
      sessionsBooked: 1,
      revenueCents: 100_000,
    });
  });

  it('counts new leads per calendar day of the admin’s time zone, every day shown, zeros included', async () => {
    for (const timeZone of [EAST, WEST, 'UTC']) {
      for (const [period, days] of [
        ['7d', 7],
        ['30d', 30],
      ] as const) {
        const answer = await funnel(`period=${period}&tz=${encodeURIComponent(timeZone)}`);
        const today = localDay(Date.now(), timeZone);
        const from = addDays(today, -(days - 1));
        expect(answer).toMatchObject({ period, timeZone, from, to: today, leadsPerDay: { bucket: 'day' } });
        const expected = Array.from({ length: days }, (_, i) => {
          const day = addDays(from, i);
          return { start: day, leads: seededAt.filter((at) => localDay(at, timeZone) === day).length };
        });
        expect(answer.leadsPerDay.bars, `${timeZone} ${period}`).toEqual(expected);
        expect(expected.some((bar) => bar.leads === 0)).toBe(true);
      }
    }
  });

  it('draws all time per week (Mondays) once it is longer than 92 days, back to the first lead', async () => {
    await insertLead(200 * DAY);
    const answer = await funnel(`period=all&tz=${encodeURIComponent(EAST)}`);
    expect(answer.from).toBe(localDay(startedAt - 200 * DAY, EAST));
    expect(answer.to).toBe(localDay(Date.now(), EAST));
    expect(answer.leadsPerDay.bucket).toBe('week');
    const bars: Array<{ start: string; leads: number }> = answer.leadsPerDay.bars;
    for (const [index, bar] of bars.entries()) {
      expect(new Date(`${bar.start}T00:00:00Z`).getUTCDay(), bar.start).toBe(1);
      if (index > 0) expect(bar.start).toBe(addDays(bars[index - 1]!.start, 7));
    }
    expect(bars[0]!.start <= answer.from && addDays(bars[0]!.start, 7) > answer.from).toBe(true);
    expect(bars.at(-1)!.start <= answer.to && addDays(bars.at(-1)!.start, 7) > answer.to).toBe(true);
    expect(bars.reduce((sum, bar) => sum + bar.leads, 0)).toBe(seededAt.length);
    // each lead in the week its local day belongs to
    for (const bar of bars) {
      const inWeek = seededAt.filter((at) => {
        const day = localDay(at, EAST);
        return day >= bar.start && day < addDays(bar.start, 7);
      });
      expect(bar.leads, bar.start).toBe(inWeek.length);
    }
  });

  it('defaults to the last 30 days in UTC', async () => {
    const answer = await funnel('');
    expect(answer).toMatchObject({ period: '30d', timeZone: 'UTC', to: localDay(Date.now(), 'UTC') });
    expect(answer.leadsPerDay.bars).toHaveLength(30);
  });

  it('refuses a bad period or time zone with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['period=90d', 'period'],
      ['period=', 'period'],
      ['period=7d&period=30d', 'period'],
      ['tz=Mars/Olympus_Mons', 'tz'],
      ['tz=Europe/Paris;DROP%20TABLE%20leads', 'tz'],
      ["tz=UTC'--", 'tz'],
      ['tz=../../etc/passwd', 'tz'],
      [`tz=${'A'.repeat(65)}`, 'tz'],
      ['tz=', 'tz'],
    ] as const) {
      const response = await asAdmin({ method: 'GET', url: `/api/admin/overview/funnel?${query}` });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json().fields, query).toHaveProperty(field);
    }
    // IANA names in any case, with several parts, and fixed offsets
    for (const tz of ['europe/paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) {
      expect((await funnel(`tz=${encodeURIComponent(tz)}`)).timeZone).toBe(tz);
    }
  });

  it('answers 401 to a caller without a session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/overview/funnel?period=7d&tz=UTC' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });
});

describe('POST /api/visits', () => {
  it('stores a visit (204) with no personal data, once per visitor per UTC day, and the funnel counts it', async () => {
    const before = (await funnel('period=7d&tz=UTC')).funnel.visits;
    const visitorId = randomUUID();
    for (let i = 0; i < 3; i += 1) {
      const response = await postVisit({ visitorId, path: '/services' });
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
    }
    const { rows } = await pool.query('SELECT path, day::text AS day, created_at FROM site_visits WHERE visitor_id = $1', [visitorId]);
    expect(rows).toEqual([{ path: '/services', day: localDay(Date.now(), 'UTC'), created_at: expect.any(Date) }]);
    expect((await funnel('period=7d&tz=UTC')).funnel.visits).toBe(before + 1);

    // what the table can hold at all: a random id, a day, a path and a time; nothing about the person
    const columns = await pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'site_visits' ORDER BY ordinal_position",
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(['visitor_id', 'day', 'path', 'created_at']);
  });

  it('counts the same tab session again on a new day', async () => {
    const visitorId = randomUUID();
    await pool.query(
      "INSERT INTO site_visits (visitor_id, day, path, created_at) VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 1, '/', now() - interval '1 day')",
      [visitorId],
    );
    expect((await postVisit({ visitorId, path: '/' })).statusCode).toBe(204);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM site_visits WHERE visitor_id = $1', [visitorId]);
    expect(rows[0].n).toBe(2);
  });

  it('refuses a bad body with a 400 naming the field, storing nothing', async () => {
    const before = (await pool.query('SELECT count(*)::int AS n FROM site_visits')).rows[0].n;
    for (const [payload, field] of [
      [{ visitorId: 'not-a-uuid', path: '/' }, 'visitorId'],
      [{ visitorId: 42, path: '/' }, 'visitorId'],
      [{ path: '/' }, 'visitorId'],
      [{ visitorId: randomUUID(), path: 'https://example.com/' }, 'path'],
      [{ visitorId: randomUUID(), path: '/results?token=secret' }, 'path'],
      [{ visitorId: randomUUID(), path: '/#top' }, 'path'],
      [{ visitorId: randomUUID(), path: `/${'a'.repeat(300)}` }, 'path'],
      [{ visitorId: randomUUID() }, 'path'],
    ] as const) {
      const response = await postVisit(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().fields, JSON.stringify(payload)).toHaveProperty(field);
    }
    for (const payload of ['not json', '[]', 'null']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/visits',
        payload,
        headers: { 'content-type': 'application/json' },
        remoteAddress: newIp(),
      });
      expect(response.statusCode, payload).toBe(400);
    }
    expect((await pool.query('SELECT count(*)::int AS n FROM site_visits')).rows[0].n).toBe(before);
  });

  it('is rate-limited per address', async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await postVisit({ visitorId: randomUUID(), path: '/' }, ip)).statusCode);
    expect(statuses.slice(0, 30).every((status) => status === 204)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await postVisit({ visitorId: randomUUID(), path: '/' })).statusCode).toBe(204);
  });
});
