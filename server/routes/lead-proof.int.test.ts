import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { flowClient, SURVEYS, toSurveyStep } from '#test/journey.js';
import { until } from '#test/until.js';
import { deleteLead } from '../admin/leads-queries.js';
import { buildTestWorker } from '#test/worker-harness.js';

/*
 * Proof before trust (decision 0044): an address typed into a capture identifies a lead, never
 * authorises a change to it. A stranger's capture of a known address is an unconfirmed attempt
 * beside the lead until a confirmation link mailed to the address is followed.
 */

let pool: pg.Pool;
let base: string;
let harness: TestApp;

beforeAll(async () => {
  // the stranger below comes from another address, through a proxy the server trusts
  harness = await buildTestApp({ ownDatabase: true, listen: true, env: { TRUST_PROXY_HOPS: '1' } });
  ({ pool, url: base } = harness);
});

afterAll(() => harness?.close());

const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;
type Browser = ReturnType<typeof flowClient>;

/** The lead's tier and qualification score as every reader sees them (lead_facts). */
async function factsOf(leadId: string) {
  const found = await pool.query<{ tier: string | null; qualification_score: number | null; name: string }>(
    'SELECT tier, qualification_score, name FROM lead_facts(true, NULL, NULL, ARRAY[$1]::uuid[])',
    [leadId],
  );
  return found.rows[0];
}

async function emailsTo(address: string) {
  const found = await pool.query<{ kind: string; status: string; text_body: string }>(
    'SELECT kind, status, text_body FROM email_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at, kind',
    [address],
  );
  return found.rows;
}

/** Submits the survey and waits for the flow's result screen. */
async function graded(browser: Browser, leadId: string, flowId: string, survey: (typeof SURVEYS)[keyof typeof SURVEYS]) {
  const answer = await browser.call('POST', `/api/leads/${leadId}/qualification`, { survey });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  await until(async () => (await browser.get(flowId)).state === 'results');
  return answer.json;
}

/** The owner of `email` comes first and is graded book_call; their results email has gone. */
async function bookCallOwner(email: string) {
  const owner = flowClient(base);
  const { leadId, flowId } = await toSurveyStep(owner, pool, email, 'Dana Owner');
  expect((await graded(owner, leadId, flowId, SURVEYS.book_call)).tier).toBe('book_call');
  await until(async () => (await emailsTo(email)).some((row) => row.kind === 'results' && row.status === 'recorded'));
  return { owner, leadId, flowId };
}

/** A stranger from another address and browser types the owner's address and reaches the free resources. */
async function strangerTakesFreeResources(email: string) {
  const stranger = flowClient(base, { headers: { 'x-forwarded-for': '198.51.100.23' } });
  const { leadId, flowId } = await toSurveyStep(stranger, pool, email.toUpperCase(), 'Mallory Stone');
  const answer = await graded(stranger, leadId, flowId, SURVEYS.homework);
  // they see their own result on screen: they typed it
  expect(answer.tier).toBe('homework');
  expect((await stranger.send(flowId, { type: 'CONTINUE' })).state).toBe('maybe_flow');
  const sent = await stranger.call('POST', '/api/functions/workflow-proxy?wait=1', {
    action: 'send-homework',
    data: { leadId, sendHomework: false, source: 'free_resources' },
  });
  expect(sent.json, JSON.stringify(sent.json)).toMatchObject({ success: true, status: 'sent', flowId });
  // whatever the attempt sends the address has been written (beside the owner's results email)
  await until(async () => (await emailsTo(email)).filter((row) => row.status === 'recorded').length >= 2);
  return { stranger, leadId, flowId };
}

const confirmTokenOf = (text: string) => decodeURIComponent(/\/confirm\?token=([^\s)\]]+)/.exec(text)![1]!);

describe('proof before trust: a capture of a known address', () => {
  it("by a stranger from another browser changes none of the lead's facts and sends its address one confirmation, nothing about the answers", async () => {
    await buildTestWorker(harness, { queues: ['grading', 'homework', 'email', 'timers'] });
    const email = unique('regrade');
    const { leadId } = await bookCallOwner(email);
    const before = await factsOf(leadId);
    expect(before).toMatchObject({ tier: 'book_call', name: 'Dana Owner' });

    const { flowId } = await strangerTakesFreeResources(email);
    // the lead's tier, score and name are as before, with one result
    expect(await factsOf(leadId)).toEqual(before);
    expect((await pool.query('SELECT count(*)::int AS n FROM assessment_results WHERE lead_id = $1', [leadId])).rows[0].n).toBe(1);
    // the address got its owner's results and one confirmation: no results, no resources about the stranger's answers
    const mail = await emailsTo(email);
    expect(mail.map((row) => row.kind)).toEqual(['results', 'address_confirmation']);
    expect(mail[1]!.text_body).toContain('Was this you? Confirm to see and keep these results');
    expect(mail[1]!.text_body).toMatch(/^Hi Dana,/);
    expect(mail[1]!.text_body).not.toContain('Mallory');
    // their flow is not bound to the lead
    expect((await pool.query('SELECT lead_id FROM flows WHERE id = $1', [flowId])).rows[0].lead_id).toBeNull();
    // the stranger's grading job names no lead; the attempt, beside the lead, holds the result
    const jobs = await pool.query("SELECT lead_id FROM jobs WHERE flow_id = $1 AND queue = 'grading'", [flowId]);
    expect(jobs.rows).toEqual([{ lead_id: null }]);
    const attempts = await pool.query(
      "SELECT name, graded->'result'->>'tier' AS tier, confirmed_at FROM lead_attempts WHERE lead_id = $1",
      [leadId],
    );
    expect(attempts.rows).toEqual([{ name: 'Mallory Stone', tier: 'homework', confirmed_at: null }]);
    expect((await pool.query('SELECT email_proven_at FROM leads WHERE lead_id = $1', [leadId])).rows[0].email_proven_at).toBeNull();
  });

  it("is given to the lead when the confirmation link is followed: the result becomes the lead's newest and the held emails go", async () => {
    await buildTestWorker(harness, { queues: ['grading', 'homework', 'email', 'timers'] });
    const email = unique('confirm');
    const { owner, leadId } = await bookCallOwner(email);
    const { stranger, flowId } = await strangerTakesFreeResources(email);
    const confirmation = (await emailsTo(email)).find((row) => row.kind === 'address_confirmation')!;
    const token = confirmTokenOf(confirmation.text_body);

    // a forged or changed token is refused and changes nothing
    expect((await owner.call('POST', '/api/leads/confirm', { token: `${token}x` })).status).toBe(404);
    expect((await owner.call('POST', '/api/leads/confirm', {})).status).toBe(400);

    const confirmed = await owner.call('POST', '/api/leads/confirm', { token });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    expect(confirmed.json).toMatchObject({ flowId, mode: 'assessment' });
    // the flow is now the confirming browser's, bound to the lead
    expect((await owner.get(flowId)).flowId).toBe(flowId);
    expect((await stranger.call('GET', `/api/flows/${flowId}`)).status).toBe(404);
    const lead = await pool.query('SELECT email_proven_at FROM leads WHERE lead_id = $1', [leadId]);
    expect(lead.rows[0].email_proven_at).not.toBeNull();
    expect(await factsOf(leadId)).toMatchObject({ tier: 'homework', name: 'Dana Owner' });
    expect((await pool.query('SELECT count(*)::int AS n FROM assessment_results WHERE lead_id = $1', [leadId])).rows[0].n).toBe(2);
    await until(async () => (await emailsTo(email)).filter((row) => row.status === 'recorded').length === 4);
    expect((await emailsTo(email)).map((row) => row.kind).sort()).toEqual(['address_confirmation', 'free_resources', 'results', 'results']);

    // one time only
    expect((await owner.call('POST', '/api/leads/confirm', { token })).status).toBe(404);
  });

  it('by the browser that created the lead acts on it as before; a checkout is not offered to an unconfirmed attempt', async () => {
    await buildTestWorker(harness, { queues: ['grading', 'email', 'timers'] });
    const email = unique('own');
    const owner = flowClient(base);
    const first = await owner.call('POST', '/api/leads', { email, name: 'Dana Owner' });
    // the lead's own visitor cookie: a second capture of the address in a new flow of this browser is bound to it
    const again = await toSurveyStep(owner, pool, email, 'Dana Owner');
    expect(again.leadId).toBe(first.json.leadId);
    expect((await pool.query('SELECT lead_id FROM flows WHERE id = $1', [again.flowId])).rows[0].lead_id).toBe(first.json.leadId);
    expect((await pool.query('SELECT count(*)::int AS n FROM lead_attempts WHERE lead_id = $1', [again.leadId])).rows[0].n).toBe(0);

    const stranger = flowClient(base, { headers: { 'x-forwarded-for': '198.51.100.24' } });
    const attempt = await toSurveyStep(stranger, pool, email, 'Mallory Stone');
    await graded(stranger, attempt.leadId, attempt.flowId, SURVEYS.book_call);
    expect((await stranger.send(attempt.flowId, { type: 'CONTINUE' })).state).toBe('yes_flow');
    const refused = await stranger.send(attempt.flowId, { type: 'PAY_DEPOSIT' });
    expect(refused.state).toBe('yes_flow');
    expect(refused.snapshot.context.notice).toMatchObject({ title: 'Confirm your email first' });
    expect(
      (await pool.query("SELECT count(*)::int AS n FROM jobs WHERE queue = 'payments' AND flow_id = $1", [attempt.flowId])).rows[0].n,
    ).toBe(0);
    expect(await factsOf(attempt.leadId)).toMatchObject({ tier: null });

    // the coach's erase of the lead also removes the attempt's flow, whose snapshot carries the address
    expect(await deleteLead(pool, attempt.leadId)).toBe(true);
    expect((await pool.query('SELECT count(*)::int AS n FROM flows WHERE id = $1', [attempt.flowId])).rows[0].n).toBe(0);
  });

  it('a followed token link proves the address', async () => {
    const email = unique('token');
    const owner = flowClient(base);
    const { leadId } = (await owner.call('POST', '/api/leads', { email, name: 'Dana Owner' })).json;
    const token = randomBytes(16).toString('hex');
    await pool.query("INSERT INTO lead_tokens (token, lead_id, expires_at) VALUES ($1, $2, now() + interval '1 day')", [token, leadId]);
    const browser = flowClient(base);
    expect((await browser.call('POST', '/api/leads/check-token', { token })).json.status).toBe('valid');
    expect((await pool.query('SELECT email_proven_at FROM leads WHERE lead_id = $1', [leadId])).rows[0].email_proven_at).not.toBeNull();
  });
});
