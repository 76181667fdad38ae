import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowClient, openSocket } from '#test/journey.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { captureLimit, clientKey } from './capture-limit.js';
import { rateLimits } from './security.js';
import { until } from '#test/until.js';

/*
 * Every way an address is typed in to be kept and mailed counts against one limit per client
 * address (decision 0045), over real HTTP and websockets on real Redis and PostgreSQL: a flood
 * spread over the routes gets the limit's worth through and nothing more stored or queued.
 */

let harness: TestApp;
let pool: pg.Pool;
let lastOctet = 0;
const newAddress = () => `198.19.${Math.floor(++lastOctet / 250)}.${(lastOctet % 250) + 1}`;

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true, env: { TRUST_PROXY_HOPS: '1' } });
  ({ pool } = harness);
});

afterAll(() => harness?.close());

const RATE_LIMIT_COPY = /^Too many requests\. Please wait .+ and try again\.$/;

/** One capture by the route `kind` names, from `address`, of an address only this run uses; the answer's status. */
async function capture(kind: 'leads' | 'event' | 'contact', address: string, tag: string, index: number): Promise<number> {
  const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': address } });
  const email = `${tag}-${kind}-${index}@example.com`;
  if (kind === 'leads') return (await browser.call('POST', '/api/leads', { email, name: 'Flood' })).status;
  if (kind === 'contact') {
    const body = { name: 'Flood', email, message: 'Hello there' };
    return (await browser.call('POST', '/api/functions/send-contact-email', body)).status;
  }
  const started = await browser.start();
  const sent = await browser.call('POST', `/api/flows/${started.flowId}/events`, {
    event: { type: 'CAPTURE_SUBMIT', name: 'Flood', email },
  });
  if (sent.status === 429) expect(sent.json.message).toMatch(RATE_LIMIT_COPY);
  return sent.status;
}

/** What the flood left in the database: leads, contact messages, emails and capture flows bound to a lead. */
async function stored(tag: string) {
  const like = `${tag}-%`;
  const [leads, contacts, emails, bound] = await Promise.all([
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE email LIKE $1', [like]),
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM contact_submissions WHERE email LIKE $1', [like]),
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM email_outbox WHERE to_address LIKE $1 OR reply_to LIKE $1', [like]),
    pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM flows f JOIN leads l ON l.lead_id = f.lead_id WHERE l.email LIKE $1 AND f.machine = 'assessmentFlow'",
      [like],
    ),
  ]);
  return { leads: leads.rows[0]!.n, contacts: contacts.rows[0]!.n, emails: emails.rows[0]!.n, bound: bound.rows[0]!.n };
}

describe('one capture limit per client address, over every capture route', () => {
  it(`40 captures over POST /api/leads, the capture event and the contact form: ${captureLimit.max} accepted, the rest 429 with nothing stored or queued`, async () => {
    const address = newAddress();
    const tag = `flood-${randomBytes(4).toString('hex')}`;
    // the contact form keeps its own, smaller limit: 4 contacts stay under it
    const kinds = Array.from({ length: 40 }, (_, i): 'leads' | 'event' | 'contact' =>
      i % 10 === 9 ? 'contact' : i % 2 ? 'event' : 'leads',
    );
    expect(kinds.filter((kind) => kind === 'contact').length).toBeLessThan(rateLimits.contact.max);
    const statuses: Array<{ kind: string; status: number }> = [];
    for (const [index, kind] of kinds.entries()) statuses.push({ kind, status: await capture(kind, address, tag, index) });

    const accepted = statuses.filter((answer) => answer.status === 200);
    expect(accepted).toHaveLength(captureLimit.max);
    expect(statuses.slice(0, captureLimit.max).every((answer) => answer.status === 200)).toBe(true);
    expect(statuses.slice(captureLimit.max).map((answer) => answer.status)).toEqual(Array(40 - captureLimit.max).fill(429));
    // every route took part on each side of the limit
    expect(new Set(statuses.slice(captureLimit.max).map((answer) => answer.kind))).toEqual(new Set(['leads', 'event', 'contact']));

    const contactsAccepted = accepted.filter((answer) => answer.kind === 'contact').length;
    const leadsAccepted = accepted.length - contactsAccepted;
    // a lead per accepted capture, a flow bound to each; a contact message and its two emails per accepted message; no more
    expect(await stored(tag)).toEqual({
      leads: leadsAccepted,
      contacts: contactsAccepted,
      emails: 2 * contactsAccepted,
      bound: leadsAccepted,
    });

    // the 429 is the rate limit's own answer, with Retry-After; another client address is served
    const refused = await flowClient(harness.url, { headers: { 'x-forwarded-for': address } }).call('POST', '/api/leads', {
      email: `${tag}-late@example.com`,
      name: 'Late',
    });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    expect(refused.json.message).toMatch(RATE_LIMIT_COPY);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await capture('event', newAddress(), tag, 99)).toBe(200);
  });

  it('counts atomically: 30 captures at once from one address over both capture routes, exactly the limit accepted', async () => {
    const address = newAddress();
    const tag = `burst-${randomBytes(4).toString('hex')}`;
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => capture(i % 2 ? 'event' : 'leads', address, tag, i)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(captureLimit.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - captureLimit.max);
    expect((await stored(tag)).leads).toBe(captureLimit.max);
  });

  it('other events on a flow, and a capture refused as bad input, do not count', async () => {
    const address = newAddress();
    const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': address } });
    const flow = await browser.start();
    for (let i = 0; i < captureLimit.max + 5; i++) {
      expect(
        (await browser.call('POST', `/api/flows/${flow.flowId}/events`, { event: { type: 'SET_TESTING_MODE', on: i % 2 === 0 } })).status,
      ).toBe(200);
    }
    for (let i = 0; i < captureLimit.max + 5; i++) {
      const bad = await browser.call('POST', '/api/leads', { email: 'not an address', name: 'Bad' });
      if (i < rateLimits.leads.max) expect(bad.status).toBe(400);
    }
    const tag = `after-${randomBytes(4).toString('hex')}`;
    expect(await capture('event', address, tag, 0)).toBe(200);
  });

  it("the email-capture event (the diagnostic's and the Mirror's save form) counts as a capture, wherever the flow stands", async () => {
    const address = newAddress();
    const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': address } });
    const flow = await browser.start();
    const statuses: number[] = [];
    for (let i = 0; i <= captureLimit.max; i++) {
      const event = { type: 'EMAIL_SUBMIT', name: 'Sam', email: `sam-${i}@example.com` };
      statuses.push((await browser.call('POST', `/api/flows/${flow.flowId}/events`, { event })).status);
    }
    // not at an email capture, the flow refuses them (409), but each was an attempt to capture
    expect(statuses.slice(0, captureLimit.max).every((status) => status === 409)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('the flow socket carries no events: a capture frame is refused with an error frame and stores nothing', async () => {
    const address = newAddress();
    const browser = flowClient(harness.url, { headers: { 'x-forwarded-for': address } });
    const flow = await browser.start();
    const socket = await openSocket(harness.url, browser.cookie());
    try {
      await socket.subscribe(flow.flowId);
      const email = `socket-${randomBytes(4).toString('hex')}@example.com`;
      for (let i = 0; i < 5; i++) {
        socket.socket.send(JSON.stringify({ type: 'event', flowId: flow.flowId, event: { type: 'CAPTURE_SUBMIT', name: 'Sock', email } }));
      }
      await socket.next((frame) => frame.type === 'error' && frame.flowId === undefined);
      const errors = () => socket.frames.filter((frame) => frame.type === 'error').length;
      await until(() => errors() >= 5, 5_000, `${errors()} of 5 error frames`);
      expect(errors()).toBe(5);
      expect((await browser.get(flow.flowId)).state).toBe('capture.editing');
      expect((await pool.query('SELECT 1 FROM leads WHERE email = $1', [email])).rowCount).toBe(0);
    } finally {
      socket.close();
    }
  });
});

describe('clientKey', () => {
  it('counts an IPv4 address as it is, a mapped one as its IPv4 address, and an IPv6 address by its /64', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:DB8:0:1:bbbb:cccc:dddd:eeee')).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8::/64');
    expect(clientKey('2001:0db8:0000:0002::9')).toBe('2001:db8:0:2::/64');
    expect(clientKey('::1')).toBe('::/64');
    expect(clientKey('not-an-address')).toBe('not-an-address');
  });
});
