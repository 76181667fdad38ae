import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MonitorServerFrame, MonitorSnapshot } from '#machines/protocol/monitor.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { deleteSession, SESSION_COOKIE } from '../auth/sessions.js';
import type { Config } from '#core/config/index.js';
import { frameText } from '../sockets/frames.js';
import { slackSignature } from '#core/slack/signature.js';

/* A database and queue prefix of its own: the monitor counts whole tables and the file runs the slack worker. */

const SECRET = `slack-secret-${randomBytes(6).toString('hex')}`;
let app: FastifyInstance;
let base: string;
let pool: pg.Pool;
let config: Config;
let sessionToken: string;
let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({
    ownDatabase: true,
    listen: true,
    env: { SLACK_SIGNING_SECRET: SECRET, SLACK_ASSESSMENT_QUIET_MS: '1500' },
  });
  ({ app, pool, config, url: base } = harness);
  ({ cookie: sessionToken } = await signedInAdmin(pool));
});

afterAll(() => harness?.close());

let eventCounter = 0;

/** A Slack event_callback envelope around a bot message. */
function botMessageEvent(text: string, fields: Record<string, unknown> = {}) {
  eventCounter += 1;
  const ts = `${Math.floor(Date.now() / 1000)}.${String(eventCounter).padStart(6, '0')}`;
  return {
    type: 'event_callback',
    team_id: 'T1',
    event_id: `Ev${randomBytes(6).toString('hex')}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: 'message', channel: 'C0ASSESS', bot_id: 'B042', username: 'Assessment Bot', text, ts, ...fields },
  };
}

/** POSTs a body to the Events API URL, signed as Slack signs it unless told otherwise. */
function postToSlackEndpoint(body: unknown, options: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  return app.inject({
    method: 'POST',
    url: '/api/slack/events',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': slackSignature(options.secret ?? SECRET, timestamp, raw),
      ...options.headers,
    },
  });
}

/** Opens the monitor socket with the admin's cookie; resolves once open, with its received frames. */
async function openMonitor(headers: Record<string, string> = { cookie: `${SESSION_COOKIE}=${sessionToken}` }) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/functions/slack-monitor`, { headers });
  const frames: MonitorServerFrame[] = [];
  socket.on('message', (raw) => frames.push(JSON.parse(frameText(raw))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
    socket.once('error', reject);
  });
  const next = async <T extends MonitorServerFrame['type']>(
    type: T,
    match: (frame: Extract<MonitorServerFrame, { type: T }>) => boolean = () => true,
  ) => {
    let found: Extract<MonitorServerFrame, { type: T }> | undefined;
    await until(() => {
      found = frames.find(
        (frame): frame is Extract<MonitorServerFrame, { type: T }> =>
          frame.type === type && match(frame as Extract<MonitorServerFrame, { type: T }>),
      );
      return found !== undefined;
    }, 15_000);
    return found!;
  };
  return { socket, frames, next, close: () => socket.close() };
}

async function statusCounts() {
  const row = await pool.query<{ messages: number; processed: number }>(
    "SELECT (SELECT count(*)::int FROM chat_bot_messages) AS messages, (SELECT count(*)::int FROM processed_assessments WHERE status = 'processed') AS processed",
  );
  return row.rows[0]!;
}

describe('POST /api/slack/events', () => {
  it("answers Slack's url_verification challenge once the signature checks out", async () => {
    const response = await postToSlackEndpoint({
      type: 'url_verification',
      token: 'legacy',
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
  });

  it('refuses a bad signature, a missing one and an old timestamp, and stores nothing', async () => {
    const event = botMessageEvent('Assessment: forged-1 Candidate: Mallory');
    const forged = await postToSlackEndpoint(event, { secret: 'not-the-secret' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toMatch(/X-Slack-Signature does not match/);

    const unsigned = await postToSlackEndpoint(event, { headers: { 'x-slack-signature': '' } });
    expect(unsigned.statusCode).toBe(401);

    const old = await postToSlackEndpoint(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toMatch(/more than 5 minutes/);

    const receipts = await pool.query("SELECT 1 FROM webhook_receipts WHERE provider = 'slack' AND event_id = $1", [event.event_id]);
    expect(receipts.rowCount).toBe(0);
  });

  it('names the field of a malformed but signed body, and never answers 5xx', async () => {
    const missingId = await postToSlackEndpoint({ type: 'event_callback', event: { type: 'message' } });
    expect(missingId.statusCode).toBe(400);
    expect(missingId.json().message).toMatch(/^body\.event_id:/);
    const notJson = await app.inject({
      method: 'POST',
      url: '/api/slack/events',
      payload: '{"type":',
      headers: (() => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        return {
          'content-type': 'application/json',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': slackSignature(SECRET, timestamp, '{"type":'),
        };
      })(),
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toBe('body: expected a JSON object');
  });

  it('processes an event id once: a Slack retry is acknowledged and ignored', async () => {
    const event = botMessageEvent('Deploy finished on staging');
    const first = await postToSlackEndpoint(event);
    expect(first.json()).toEqual({ ok: true });
    const retry = await postToSlackEndpoint(event, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ ok: true, duplicate: true });
    const jobs = await pool.query("SELECT count(*)::int AS n FROM jobs WHERE queue = 'slack' AND payload->>'eventId' = $1", [
      event.event_id,
    ]);
    expect(jobs.rows[0].n).toBe(1);
  });
});

describe('without SLACK_SIGNING_SECRET', () => {
  it('refuses every Slack request (503) and tells the monitor Slack is not configured', async () => {
    const { app: unconfigured, close } = await buildTestApp({
      config: { ...config, SLACK_SIGNING_SECRET: undefined },
      sharing: harness,
      listen: true,
    });
    try {
      const refused = await unconfigured.inject({
        method: 'POST',
        url: '/api/slack/events',
        payload: { type: 'url_verification', challenge: 'x' },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().message).toBe('Slack events are not configured: set SLACK_SIGNING_SECRET.');
      const address = unconfigured.server.address();
      const socket = new WebSocket(
        `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/functions/slack-monitor`,
        {
          headers: { cookie: `${SESSION_COOKIE}=${sessionToken}` },
        },
      );
      const status = await new Promise<MonitorServerFrame>((resolve, reject) => {
        socket.once('open', () => socket.send(JSON.stringify({ type: 'get_status' })));
        socket.once('message', (raw) => resolve(JSON.parse(frameText(raw))));
        socket.once('error', reject);
      });
      expect(status).toMatchObject({
        type: 'status',
        status: 'not_configured',
        message: 'Slack events are not configured: set SLACK_SIGNING_SECRET.',
      });
      socket.close();
    } finally {
      await close();
    }
  });
});

describe('the team-chat monitor socket', () => {
  it('refuses a visitor without a session, a signed-out session and a page on another origin', async () => {
    await expect(openMonitor({})).rejects.toThrow('refused with 401');
    await expect(openMonitor({ cookie: `${SESSION_COOKIE}=not-a-session` })).rejects.toThrow('refused with 401');
    await expect(openMonitor({ cookie: `${SESSION_COOKIE}=${sessionToken}`, origin: 'https://evil.example' })).rejects.toThrow(
      'refused with 403',
    );
    expect((await app.inject({ method: 'GET', url: '/api/admin/monitor' })).statusCode).toBe(401);
  });

  it('answers get_status with counters from the database, and a malformed frame with an error frame', async () => {
    const monitor = await openMonitor({ cookie: `${SESSION_COOKIE}=${sessionToken}`, origin: base });
    monitor.socket.send(JSON.stringify({ type: 'get_status' }));
    const status = await monitor.next('status');
    const counts = await statusCounts();
    expect(status).toMatchObject({
      status: 'listening',
      stats: { totalMessages: counts.messages, assessmentsProcessed: counts.processed },
    });
    monitor.socket.send('not json');
    expect((await monitor.next('error')).error).toBe('Messages must be JSON.');
    monitor.socket.send(JSON.stringify({ type: 'subscribe' }));
    expect((await monitor.next('error', (frame) => frame.error !== 'Messages must be JSON.')).error).toMatch(
      /^Unknown or malformed message: type/,
    );
    expect(monitor.socket.readyState).toBe(WebSocket.OPEN);
    monitor.close();
  });

  it('streams a signed bot message, groups an assessment, records it on its completion marker, with counters from the database', async () => {
    await buildTestWorker(harness, { queues: ['slack'] });
    const monitor = await openMonitor();
    const key = `LDR-${randomBytes(3).toString('hex')}`;
    const before = await statusCounts();

    await postToSlackEndpoint(botMessageEvent(`New assessment started\n*Assessment:* ${key}\n*Candidate:* Jane Doe`));
    const message = await monitor.next('slack_message', (frame) => frame.data.text.includes(key));
    expect(message.data).toMatchObject({ channel: 'C0ASSESS', bot_id: 'B042', user: 'Assessment Bot' });
    await monitor.next('status', (frame) => frame.stats.totalMessages >= before.messages + 1 && frame.activeAssessments >= 1);

    await postToSlackEndpoint(botMessageEvent(`Assessment: ${key} - section scores recorded`));
    await postToSlackEndpoint(botMessageEvent(`Assessment: ${key}\nStatus: complete`));
    const processed = await monitor.next('assessment_processed', (frame) => frame.data.assessmentKey === key);
    expect(processed.data).toMatchObject({ candidateName: 'Jane Doe', messageCount: 3 });
    await monitor.next('status', (frame) => frame.stats.assessmentsProcessed === before.processed + 1);

    const snapshot = await app.inject({
      method: 'GET',
      url: '/api/admin/monitor',
      headers: { cookie: `${SESSION_COOKIE}=${sessionToken}` },
    });
    const body = snapshot.json<MonitorSnapshot>();
    expect(body.assessments[0]).toMatchObject({ assessmentKey: key, candidateName: 'Jane Doe', messageCount: 3 });
    expect(body.messages[0]!.text).toContain('Status: complete');
    monitor.close();
  });

  it('records a quiet group after the quiet window, reports a group without a candidate as an error, and ignores human messages', async () => {
    await buildTestWorker(harness, { queues: ['slack'] });
    const monitor = await openMonitor();
    const quiet = `Q-${randomBytes(3).toString('hex')}`;
    const nameless = `N-${randomBytes(3).toString('hex')}`;
    const human = botMessageEvent(`Assessment: ${quiet} Candidate: Someone Else`, { bot_id: undefined, user: 'U123' });
    await postToSlackEndpoint(human);
    await postToSlackEndpoint(botMessageEvent(`Assessment #${quiet} | Candidate: Sam Lee`));
    await postToSlackEndpoint(botMessageEvent(`Assessment #${quiet} | interview notes attached`));
    await postToSlackEndpoint(botMessageEvent(`Assessment: ${nameless} Status: done`));

    expect((await monitor.next('assessment_error')).error).toBe(`Assessment ${nameless}: none of its 1 messages names a candidate`);
    const processed = await monitor.next('assessment_processed', (frame) => frame.data.assessmentKey === quiet);
    expect(processed.data).toMatchObject({ candidateName: 'Sam Lee', messageCount: 2 });
    const stored = await pool.query('SELECT count(*)::int AS n FROM chat_bot_messages WHERE event_id = $1', [human.event_id]);
    expect(stored.rows[0].n).toBe(0);
    monitor.close();
  });

  it('closes an open monitor with code 4401 within a second of its session ending, with nothing asked', async () => {
    const { cookie: token } = await signedInAdmin(pool);
    const monitor = await openMonitor({ cookie: `${SESSION_COOKIE}=${token}` });
    const closed = new Promise<number>((resolve) => monitor.socket.once('close', (code) => resolve(code)));
    const endedAt = Date.now();
    await deleteSession(pool, token);
    expect(await closed).toBe(4401);
    expect(Date.now() - endedAt).toBeLessThan(1000);
  });
});
