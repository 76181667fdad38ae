import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFlow } from '#test/flows.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { injectAs, seedVisitor } from '#test/visitor.js';
import { unsubscribeToken } from '#core/email/unsubscribe.js';
import { resumeLink } from '#core/flows/resume-link.js';
import { createOrUpdateLead } from '#core/leads/lead-service.js';

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({ logLevel: 'info' });
  ({ app, pool } = harness);
});

afterAll(() => harness?.close());

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A captured lead's assessment at its intro, left there by a browser of its own. */
async function abandonedFlow(email = `resume-${unique()}@example.com`) {
  const first = await seedVisitor(pool);
  const lead = await createOrUpdateLead(pool, { email, name: 'Ada Lovelace' });
  const flowId = await seedFlow(
    pool,
    'assessmentFlow',
    [
      { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email },
      { type: 'LEAD_SAVED', leadId: lead.leadId },
    ],
    { leadId: lead.leadId, visitorId: first.visitorId },
  );
  return { flowId, leadId: lead.leadId, email, first };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

async function ownerOf(flowId: string): Promise<string | null> {
  return (await pool.query<{ visitor_id: string | null }>('SELECT visitor_id FROM flows WHERE id = $1', [flowId])).rows[0]!.visitor_id;
}

describe('POST /api/flows/resume', () => {
  it('binds the flow to the browser that opens the link: it reads and moves the flow; the first browser and a stranger reach nothing', async () => {
    const { flowId, first } = await abandonedFlow();
    const token = tokenOf(await resumeLink(pool, 'https://coach.example.com', flowId));
    const phone = injectAs(app, { remoteAddress: '198.51.100.20' });

    const resumed = await phone({ method: 'POST', url: '/api/flows/resume', payload: { token } });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toMatchObject({ flowId, machine: 'assessmentFlow', state: 'intro', mode: 'assessment', version: 2 });
    expect(resumed.json().snapshot.context.session).toMatchObject({ name: 'Ada Lovelace' });
    expect(phone.cookies.hf_visitor).toBeDefined();
    expect(await ownerOf(flowId)).not.toBe(first.visitorId);

    expect((await phone(`/api/flows/${flowId}`)).statusCode).toBe(200);
    const moved = await phone({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event: { type: 'START_DIAGNOSTIC' } } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().state).toMatch(/^diagnostic/);

    // the one owner a flow has: the browser the assessment began in lost it, a stranger never had it
    const laptop = injectAs(app, { visitorCookie: first.cookie });
    const stranger = injectAs(app, { remoteAddress: '203.0.113.9' });
    for (const other of [laptop, stranger]) {
      expect((await other(`/api/flows/${flowId}`)).statusCode).toBe(404);
      const refused = await other({ method: 'POST', url: `/api/flows/${flowId}/events`, payload: { event: { type: 'RETAKE' } } });
      expect(refused.statusCode).toBe(404);
    }

    // the link works again within its week, for the same browser or for the laptop taking it back
    expect((await phone({ method: 'POST', url: '/api/flows/resume', payload: { token } })).json().state).toMatch(/^diagnostic/);
    expect((await laptop({ method: 'POST', url: '/api/flows/resume', payload: { token } })).statusCode).toBe(200);
    expect(await ownerOf(flowId)).toBe(first.visitorId);
  });

  it('refuses a tampered link, the flow id alone or another link kind as not found, naming the token; nothing is bound or issued', async () => {
    const { flowId, leadId, first } = await abandonedFlow();
    const other = await abandonedFlow();
    const token = tokenOf(await resumeLink(pool, 'https://coach.example.com', flowId));
    const [, expiry, signature] = token.split('.');
    const flipped = signature!.at(-1) === 'A' ? 'B' : 'A';
    const refusedTokens = [
      `${token.slice(0, -1)}${flipped}`,
      `${other.flowId}.${expiry}.${signature}`,
      `${flowId}.${(parseInt(expiry!, 36) + 86_400).toString(36)}.${signature}`,
      flowId,
      `${flowId}.${await unsubscribeToken(pool, leadId)}`,
      await unsubscribeToken(pool, leadId),
      'not a token at all',
    ];
    for (const bad of refusedTokens) {
      const stranger = injectAs(app, { remoteAddress: '203.0.113.10' });
      const refused = await stranger({ method: 'POST', url: '/api/flows/resume', payload: { token: bad } });
      expect(refused.statusCode, bad).toBe(404);
      expect(refused.json()).toMatchObject({ statusCode: 404, error: 'Not Found', fields: { token: 'is not a valid resume link' } });
      expect(stranger.cookies.hf_visitor).toBeUndefined();
    }
    expect(await ownerOf(flowId)).toBe(first.visitorId);
    expect(await ownerOf(other.flowId)).toBe(other.first.visitorId);

    const missing = await app.inject({ method: 'POST', url: '/api/flows/resume', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('token');
  });

  it('answers an expired link with 400 and a message saying so, and binds nothing', async () => {
    const { flowId, first } = await abandonedFlow();
    const sentEightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    const token = tokenOf(await resumeLink(pool, 'https://coach.example.com', flowId, sentEightDaysAgo));
    const browser = injectAs(app, { remoteAddress: '198.51.100.21' });
    const expired = await browser({ method: 'POST', url: '/api/flows/resume', payload: { token } });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ statusCode: 400, fields: { token: 'has expired' } });
    expect(expired.json().message).toMatch(/^This link expired on \d{4}-\d{2}-\d{2}: resume links work for a week\./);
    expect(browser.cookies.hf_visitor).toBeUndefined();
    expect(await ownerOf(flowId)).toBe(first.visitorId);
  });

  it('answers a valid link to a deleted lead as not found', async () => {
    const { flowId, leadId } = await abandonedFlow();
    const token = tokenOf(await resumeLink(pool, 'https://coach.example.com', flowId));
    await pool.query('DELETE FROM leads WHERE lead_id = $1', [leadId]);
    const gone = await app.inject({ method: 'POST', url: '/api/flows/resume', payload: { token } });
    expect(gone.statusCode).toBe(404);
  });
});

describe('/api/email/unsubscribe', () => {
  const unsubscribed = async (email: string) =>
    (await pool.query<{ email: string; how: string }>('SELECT email, how FROM email_unsubscribes WHERE email = lower($1)', [email])).rows;

  it('one-click (RFC 8058): the form POST unsubscribes the address lower-cased, once; again is 200 as well', async () => {
    const email = `One.Click-${unique()}@Example.com`;
    const { leadId } = await abandonedFlow(email);
    const url = `/api/email/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(pool, leadId))}`;
    const oneClick = { method: 'POST' as const, url, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    for (let i = 0; i < 2; i++) {
      const answer = await app.inject({ ...oneClick, payload: 'List-Unsubscribe=One-Click' });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toEqual({ unsubscribed: true });
    }
    expect(await unsubscribed(email)).toEqual([{ email: email.toLowerCase(), how: 'one_click' }]);
    // the token is in the request line of the log, redacted
    expect(harness.logLines.some((line) => line.includes(url.split('=')[1]!))).toBe(false);
    expect(harness.logLines.some((line) => line.includes('/api/email/unsubscribe?token=[redacted]'))).toBe(true);
  });

  it('takes the one-click body as multipart/form-data too, and the page confirmation as JSON', async () => {
    const multipartLead = await abandonedFlow();
    const boundary = '----hf-test-boundary';
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const viaForm = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe?token=${await unsubscribeToken(pool, multipartLead.leadId)}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: form,
    });
    expect(viaForm.statusCode, viaForm.body).toBe(200);
    expect(await unsubscribed(multipartLead.email)).toEqual([{ email: multipartLead.email, how: 'one_click' }]);

    const pageLead = await abandonedFlow();
    const viaPage = await app.inject({
      method: 'POST',
      url: `/api/email/unsubscribe?token=${await unsubscribeToken(pool, pageLead.leadId)}`,
      payload: { from: 'page' },
    });
    expect(viaPage.statusCode, viaPage.body).toBe(200);
    expect(await unsubscribed(pageLead.email)).toEqual([{ email: pageLead.email, how: 'page' }]);
  });

  it('refuses a tampered, foreign or missing token and an unknown body with 404 or 400 naming the field, never a 500', async () => {
    const { leadId, flowId, email } = await abandonedFlow();
    const token = await unsubscribeToken(pool, leadId);
    const other = await abandonedFlow();
    const resumeToken = tokenOf(await resumeLink(pool, 'https://coach.example.com', flowId));
    const oneClick = (query: string, payload = 'List-Unsubscribe=One-Click') =>
      app.inject({
        method: 'POST',
        url: `/api/email/unsubscribe${query}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });

    for (const bad of [`${token.slice(0, -2)}xx`, `${other.leadId}.${token.split('.')[1]}`, leadId, resumeToken, '%E0%A4%A', '.']) {
      const refused = await oneClick(`?token=${bad}`);
      expect(refused.statusCode, bad).toBe(404);
      expect(refused.json()).toMatchObject({ error: 'Not Found', fields: { token: 'is not a valid unsubscribe link' } });
    }
    const noToken = await oneClick('');
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().fields).toHaveProperty('token');
    const wrongBody = await oneClick(`?token=${token}`, 'List-Unsubscribe=Yes');
    expect(wrongBody.statusCode).toBe(400);
    const tooLong = await oneClick(`?token=${'a'.repeat(5000)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(await unsubscribed(email)).toEqual([]);
    expect(await unsubscribed(other.email)).toEqual([]);
  });

  it('a GET (a mail client opening the header address) changes nothing and is sent to the page', async () => {
    const { leadId, email } = await abandonedFlow();
    const token = await unsubscribeToken(pool, leadId);
    const opened = await app.inject({ method: 'GET', url: `/api/email/unsubscribe?token=${token}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/unsubscribe?token=${token}`);
    expect(await unsubscribed(email)).toEqual([]);
  });
});
