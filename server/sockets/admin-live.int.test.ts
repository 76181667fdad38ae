import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import { UnrecoverableError } from 'bullmq';
import Fastify from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ADMIN_LIVE_PATH,
  ADMIN_LIVE_SESSION_ENDED,
  adminLiveServerFrameSchema,
  type AdminLiveServerFrame,
} from '#machines/protocol/admin-live.js';
import { signedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { until } from '#test/until.js';
import { buildTestWorker } from '#test/worker-harness.js';
import { sessionCookieName } from '../auth/cookie.js';
import { AdminSockets } from '../auth/admin-socket.js';
import { deleteSession, SESSION_COOKIE, sessionTokenHash } from '../auth/sessions.js';
import type { Config } from '#core/config/index.js';
import { ChannelListener } from '#core/db/channel-listener.js';
import { createPool } from '#core/db/pool.js';
import { PushHub } from '#core/flows/push.js';
import { browserFetch } from '#test/visitor.js';
import { frameText } from './frames.js';
import { insertJob } from '#core/queues/outbox.js';
import { adminLiveRoutes } from './admin-live.js';

/* A database and queue prefix of its own: the job events come from workers and a relay run here. */

let base: string;
let pool: pg.Pool;
let config: Config;
let redis: Redis;
let harness: TestApp;
let adminCookie: string;

async function sessionCookie(role?: string): Promise<{ cookie: string; token: string }> {
  const admin = await signedInAdmin(pool, { role });
  return { cookie: admin.headers.cookie, token: admin.cookie };
}

/** The status the server answers a websocket handshake with when it refuses the upgrade. */
function refusedWith(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', () => {});
  });
}

/** An admin's live socket that collects (and schema-checks) every frame; resolves after `hello`. */
async function openLive(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  const frames: AdminLiveServerFrame[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('message', (raw) => frames.push(adminLiveServerFrameSchema.parse(JSON.parse(frameText(raw)))));
  async function next(match: (frame: AdminLiveServerFrame) => boolean, timeoutMs = 15_000): Promise<AdminLiveServerFrame> {
    await until(() => frames.some(match), timeoutMs, `no matching frame; got ${JSON.stringify(frames)}`);
    return frames.find(match)!;
  }
  /** A ping and its pong: whatever the server sent this socket before answering it (a close) has arrived. */
  async function roundTrip(): Promise<void> {
    const pongs = () => frames.filter((frame) => frame.type === 'pong').length;
    const before = pongs();
    socket.send(JSON.stringify({ type: 'ping' }));
    await until(() => pongs() > before || socket.readyState !== WebSocket.OPEN, 5_000, 'no pong');
  }
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await next((frame) => frame.type === 'hello');
  return { socket, frames, next, roundTrip, closed, send: (data: string) => socket.send(data) };
}

/** Whether the session's last_seen_at, stamped by every read of it, is later than `since` (a PostgreSQL time). */
async function readSince(token: string, since: string): Promise<boolean> {
  const found = await pool.query<{ later: boolean }>('SELECT last_seen_at > $2::timestamptz AS later FROM sessions WHERE token_hash = $1', [
    sessionTokenHash(token),
    since,
  ]);
  return found.rows[0]?.later ?? false;
}

beforeAll(async () => {
  harness = await buildTestApp({ ownDatabase: true, listen: true });
  ({ pool, config, redis } = harness);
  base = new URL(harness.url).host;
  // only the admin role exists today; a second one shows the guard refuses any other
  await pool.query('ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check');
  adminCookie = (await sessionCookie()).cookie;
});

afterAll(() => harness?.close());

describe('the admin live socket', () => {
  const url = () => `ws://${base}${ADMIN_LIVE_PATH}`;

  it('refuses the upgrade without a session (401), for a non-admin (403) and from another origin (403)', async () => {
    expect(await refusedWith(url(), {})).toMatchObject({ status: 401 });
    expect(JSON.parse((await refusedWith(url(), { cookie: `${SESSION_COOKIE}=forged` })).body)).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
    });
    const member = await sessionCookie('member');
    expect(await refusedWith(url(), { cookie: member.cookie })).toMatchObject({ status: 403 });
    const foreign = await refusedWith(url(), { cookie: adminCookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).message).toMatch(/site itself/);
    expect(await refusedWith(url(), { cookie: adminCookie, origin: 'null' })).toMatchObject({ status: 403 });
    // the site's own origin is welcome
    const live = await openLive(url(), { cookie: adminCookie, origin: `http://${base}` });
    live.socket.close();
  });

  it('sends a flow frame for an event applied to any flow', async () => {
    const live = await openLive(url(), { cookie: adminCookie });
    const visitor = browserFetch();
    const started = await visitor.fetch(`http://${base}/api/flows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ testing: true }),
    });
    const { flowId } = (await started.json()) as { flowId: string };
    const moved = await visitor.fetch(`http://${base}/api/flows/${flowId}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: { type: 'CAPTURE_SUBMIT', name: 'Ada Lovelace', email: `ada-${randomBytes(4).toString('hex')}@example.com` },
      }),
    });
    expect(moved.status).toBe(200);
    const frame = await live.next((f) => f.type === 'flow' && f.flowId === flowId && f.event === 'CAPTURE_SUBMIT');
    expect(frame).toMatchObject({ type: 'flow', flowId, event: 'CAPTURE_SUBMIT', state: expect.any(String) });
    // the frame carries names, not the event's data (no email)
    expect(JSON.stringify(live.frames)).not.toContain('@example.com');
    live.socket.close();
  });

  it('sends job frames as a job runs: active and completed, or failed with its reason', async () => {
    const live = await openLive(url(), { cookie: adminCookie });
    const second = await openLive(url(), { cookie: adminCookie });
    await buildTestWorker(harness, {
      queues: ['email'],
      processors: {
        email: {
          process: (job) =>
            (job.data.payload as { fail?: boolean }).fail
              ? Promise.reject(new UnrecoverableError('smtp refused: mailbox full'))
              : Promise.resolve({ sent: true }),
        },
      },
    });
    const ok = await insertJob(pool, { queue: 'email', name: 'live-ok', payload: {} });
    const bad = await insertJob(pool, { queue: 'email', name: 'live-bad', payload: { fail: true }, maxAttempts: 1 });
    expect(await live.next((f) => f.type === 'job' && f.jobId === ok && f.event === 'completed')).toMatchObject({
      queue: 'email',
      at: expect.any(Number),
    });
    await live.next((f) => f.type === 'job' && f.jobId === ok && f.event === 'active');
    const failed = await live.next((f) => f.type === 'job' && f.jobId === bad && f.event === 'failed');
    expect(failed).toMatchObject({ queue: 'email', failedReason: 'smtp refused: mailbox full' });
    expect(Math.abs((failed as { at: number }).at - Date.now())).toBeLessThan(60_000);
    // every admin socket hears the same feed
    await second.next((f) => f.type === 'job' && f.jobId === bad && f.event === 'failed');
    live.socket.close();
    second.socket.close();
  });

  it('answers a ping with a pong and anything else with an error frame, staying open', async () => {
    const live = await openLive(url(), { cookie: adminCookie });
    live.send('not json');
    await live.next((f) => f.type === 'error' && /JSON/.test(f.error));
    live.send(JSON.stringify({ type: 'subscribe', flowId: 'x' }));
    await live.next((f) => f.type === 'error' && /Unknown or malformed message/.test(f.error));
    live.send(JSON.stringify({ type: 'ping' }));
    await live.next((f) => f.type === 'pong');
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    live.socket.close();
  });

  it('keeps working after every socket left (the feed closes and opens again)', async () => {
    const first = await openLive(url(), { cookie: adminCookie });
    first.socket.close();
    await first.closed;
    const again = await openLive(url(), { cookie: adminCookie });
    await buildTestWorker(harness, { queues: ['slack'], processors: { slack: { process: () => Promise.resolve({ posted: true }) } } });
    const id = await insertJob(pool, { queue: 'slack', name: 'live-again', payload: {} });
    await again.next((f) => f.type === 'job' && f.jobId === id && f.event === 'completed');
    again.socket.close();
  });
});

describe('the admin live socket when the session ends', () => {
  it('closes within a second of signing out through another server (its own pool and LISTEN connection)', async () => {
    const { app: other, close } = await buildTestApp({ config, sharing: { redis }, poolSize: 2 });
    try {
      const session = await sessionCookie();
      const live = await openLive(`ws://${base}${ADMIN_LIVE_PATH}`, { cookie: session.cookie });
      const still = await openLive(`ws://${base}${ADMIN_LIVE_PATH}`, { cookie: adminCookie });
      const signedOutAt = Date.now();
      const signOut = await other.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: session.cookie } });
      expect(signOut.statusCode).toBe(200);
      expect(await live.closed).toMatchObject({ code: ADMIN_LIVE_SESSION_ENDED, reason: expect.stringMatching(/sign in again/) });
      expect(Date.now() - signedOutAt).toBeLessThan(1000);
      // a socket of another session stays open: the announcement closed sockets before the ping
      // was sent, so a close of this one would have come before the pong
      await still.roundTrip();
      expect(still.socket.readyState).toBe(WebSocket.OPEN);
      still.socket.close();
    } finally {
      await close();
    }
  });

  it('closes when the session is deleted outside any server (a password reset from the command line)', async () => {
    const session = await sessionCookie();
    const live = await openLive(`ws://${base}${ADMIN_LIVE_PATH}`, { cookie: session.cookie });
    const cli = createPool(config.DATABASE_URL!, 1);
    try {
      await deleteSession(cli, session.token);
    } finally {
      await cli.end();
    }
    expect((await live.closed).code).toBe(ADMIN_LIVE_SESSION_ENDED);
  });

  it('still closes at once after PostgreSQL dropped the LISTEN connection', async () => {
    const session = await sessionCookie();
    const live = await openLive(`ws://${base}${ADMIN_LIVE_PATH}`, { cookie: session.cookie });
    const killed = await pool.query<{ pid: number }>(
      "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%LISTEN session_ended%' AND pid <> pg_backend_pid()",
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    // listening again takes a quarter of a second; the sign-out comes after it. Once listening, the
    // server reads every open socket's session again (announcements were missed), stamping its
    // last_seen_at after the new LISTEN was issued
    await until(async () => {
      const listening = await pool.query<{ since: string }>(
        "SELECT query_start::text AS since FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND query LIKE '%LISTEN session_ended%' AND pid <> ALL($1)",
        [killed.rows.map((row) => row.pid)],
      );
      return listening.rows.length > 0 && readSince(session.token, listening.rows[0]!.since);
    }, 10_000);
    // that read found the session alive and left the socket open
    await live.roundTrip();
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    const endedAt = Date.now();
    await deleteSession(pool, session.token);
    expect((await live.closed).code).toBe(ADMIN_LIVE_SESSION_ENDED);
    expect(Date.now() - endedAt).toBeLessThan(1000);
  });

  it('closes on the timed re-read once the session has expired (an expiry announces nothing)', async () => {
    // its own small app, to re-read the session every 200 ms instead of every minute
    const small = Fastify({ logger: false });
    const pushes = new PushHub(redis, config.QUEUE_PREFIX, small.log);
    // its notices never listen: only the timed re-read can close the socket
    const adminSockets = new AdminSockets(pool, new ChannelListener(pool, small.log), small.log, 200);
    await pushes.start();
    try {
      await small.register(cookie);
      small.decorate('sessionCookieName', sessionCookieName(config));
      await small.register(websocket);
      await small.register(adminLiveRoutes, { config, pool, redis, pushes, adminSockets });
      await small.listen({ host: '127.0.0.1', port: 0 });
      const address = small.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const session = await sessionCookie();
      const live = await openLive(`ws://127.0.0.1:${port}${ADMIN_LIVE_PATH}`, { cookie: session.cookie });
      // a timed re-read of a live session leaves the socket open: the session is read (its
      // last_seen_at stamped) twice after this moment, once perhaps by the read on opening, the
      // other by the timer
      let since = (await pool.query<{ now: string }>('SELECT now()::text AS now')).rows[0]!.now;
      for (let read = 0; read < 2; read++) {
        await until(() => readSince(session.token, since), 5_000, 'the session was not read again');
        since = (
          await pool.query<{ seen: string }>('SELECT last_seen_at::text AS seen FROM sessions WHERE token_hash = $1', [
            sessionTokenHash(session.token),
          ])
        ).rows[0]!.seen;
      }
      await live.roundTrip();
      expect(live.socket.readyState).toBe(WebSocket.OPEN);
      await pool.query(
        "UPDATE sessions SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second' WHERE token_hash = $1",
        [sessionTokenHash(session.token)],
      );
      expect(await live.closed).toMatchObject({ code: ADMIN_LIVE_SESSION_ENDED, reason: expect.stringMatching(/sign in again/) });
    } finally {
      await small.close();
      pushes.stop();
    }
  });
});
