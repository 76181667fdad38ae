import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { createAdmin } from '../auth/admin-users.js';
import { csrfTokenFor } from '../auth/sessions.js';
import { verifyCredentials } from '../auth/credentials.js';
import { SIGN_IN_THROTTLE, SignInThrottle, waitAfter } from '../auth/sign-in-throttle.js';

const INVALID = 'Invalid email or password. Please try again.';
const PASSWORD = 'correct horse battery';

let app: FastifyInstance;
let pool: pg.Pool;
let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp();
  ({ app, pool } = harness);
});

afterAll(() => harness?.close());

/** A fresh client address per sign-in, so the per-IP limit only bites where a test means it to. */
function newIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 250) + 1}`;
}

async function newAdmin(): Promise<string> {
  const email = `auth-${randomBytes(6).toString('hex')}@example.com`;
  await createAdmin(pool, email, PASSWORD);
  return email;
}

function signIn(email: string, password: string, options: { ip?: string; cookie?: string; app?: FastifyInstance; host?: string } = {}) {
  return (options.app ?? app).inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { email, password },
    remoteAddress: options.ip ?? newIp(),
    headers: { ...(options.cookie ? { cookie: `hf_session=${options.cookie}` } : {}), ...(options.host ? { host: options.host } : {}) },
  });
}

function sessionCookie(response: LightMyRequestResponse) {
  return response.cookies.find((cookie) => cookie.name === 'hf_session');
}

function getSession(token?: string) {
  return app.inject({ url: '/api/auth/session', headers: token ? { cookie: `hf_session=${token}` } : {} });
}

describe('sign-in', () => {
  it('signs in: an httpOnly SameSite=Lax cookie for 7 days, the user and a CSRF token; get-session then returns them', async () => {
    const email = await newAdmin();
    const response = await signIn(email.toUpperCase(), PASSWORD);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      user: { id: expect.any(String), email, role: 'admin', mustChangePassword: false },
      csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(response.headers['cache-control']).toBe('no-store');

    const cookie = sessionCookie(response)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.maxAge).toBeGreaterThan(7 * 24 * 60 * 60 - 60);
    expect(cookie.maxAge).toBeLessThanOrEqual(7 * 24 * 60 * 60);
    // the default public URL is plain http, so not Secure
    expect(cookie.secure).toBeFalsy();
    expect(response.body).not.toContain(cookie.value);

    const user = await pool.query('SELECT last_sign_in_at FROM users WHERE email = $1', [email]);
    expect(user.rows[0].last_sign_in_at).toBeInstanceOf(Date);

    const session = await getSession(cookie.value);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual(body);
    // the session slides, and so does the cookie
    expect(sessionCookie(session)).toMatchObject({ value: cookie.value, httpOnly: true });
    expect(sessionCookie(session)!.maxAge).toBeGreaterThan(7 * 24 * 60 * 60 - 60);
  });

  it('accepts the bootstrap admin’s kind of address (admin@localhost), as the form’s type=email does', async () => {
    const email = `boot-${randomBytes(4).toString('hex')}@localhost`;
    await createAdmin(pool, email, PASSWORD);
    expect((await signIn(email, PASSWORD)).statusCode).toBe(200);
  });

  it('answers 401 with the product text for a wrong password and for an unknown email alike, setting no cookie', async () => {
    const email = await newAdmin();
    const wrong = await signIn(email, 'not the password');
    const unknown = await signIn(`nobody-${randomBytes(6).toString('hex')}@example.com`, PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: INVALID });
      expect(sessionCookie(response)).toBeUndefined();
    }
  });

  it('answers 400 with the product text for a password shorter than 6 characters', async () => {
    const response = await signIn(await newAdmin(), '12345');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Password should be at least 6 characters long.',
      fields: { password: 'Password should be at least 6 characters long.' },
    });
    const badEmail = await signIn('not-an-email', PASSWORD);
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().fields).toEqual({ email: 'Please enter a valid email address' });
  });

  it("makes an address that keeps failing wait longer after each try, without slowing anyone else's", async () => {
    const email = await newAdmin();
    const ip = newIp();
    for (let i = 0; i < SIGN_IN_THROTTLE.freeFailures; i += 1) expect((await signIn(email, 'wrong password', { ip })).statusCode).toBe(401);
    const waiting = await signIn(email, PASSWORD, { ip });
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many failed sign-in attempts from here for this email. Please wait 1 second and try again.',
    });
    expect(waiting.headers['retry-after']).toBe('1');
    expect(sessionCookie(waiting)).toBeUndefined();
    // the wait doubles with each failure, up to 15 minutes
    expect([5, 6, 7, 14, 30].map(waitAfter)).toEqual([1_000, 2_000, 4_000, 512_000, 900_000]);
    // the owner, from their own address, signs in at once
    expect((await signIn(email, PASSWORD)).statusCode).toBe(200);
  });

  it('the coach signs in after strangers failed many times from many addresses, and hears of it once', async () => {
    const email = await newAdmin();
    const strangers = Array.from({ length: 8 }, newIp);
    for (const ip of strangers) for (let i = 0; i < 3; i += 1) expect((await signIn(email, 'a guess', { ip })).statusCode).toBe(401);
    const coach = await signIn(email, PASSWORD);
    expect(coach.statusCode).toBe(200);
    const notices = await pool.query<{ to_address: string; subject: string; text_body: string }>(
      "SELECT to_address, subject, text_body FROM email_outbox WHERE kind = 'sign_in_notice' AND to_address = $1",
      [email],
    );
    expect(notices.rows).toHaveLength(1);
    expect(notices.rows[0]).toMatchObject({ to_address: email, subject: 'Failed sign-ins to your admin account' });
    // sent at the tenth failure (the fourth address's first), once for the hour
    expect(notices.rows[0]!.text_body).toContain(
      'there were 10 failed attempts to sign in to your admin account, from 4 different addresses',
    );
    expect(notices.rows[0]!.text_body).not.toContain('a guess');
    // an address that is no account is told nothing
    const unknown = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    for (const ip of strangers.slice(0, 4)) for (let i = 0; i < 3; i += 1) await signIn(unknown, 'a guess', { ip });
    expect((await pool.query("SELECT 1 FROM email_outbox WHERE kind = 'sign_in_notice' AND to_address = $1", [unknown])).rowCount).toBe(0);
  });

  it('a successful sign-in clears that address’s failures', async () => {
    const email = await newAdmin();
    const ip = newIp();
    for (let i = 0; i < 4; i += 1) await signIn(email, 'wrong password', { ip });
    expect((await signIn(email, PASSWORD, { ip })).statusCode).toBe(200);
    const codes = [];
    for (let i = 0; i < 5; i += 1) codes.push((await signIn(email, 'wrong password', { ip })).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
  });

  it('hashes at most two passwords at once, so a burst of sign-ins leaves the database reachable', async () => {
    const email = await newAdmin();
    const burst = await Promise.all(Array.from({ length: 30 }, () => signIn(email, 'wrong password')));
    expect(burst.map((response) => response.statusCode).filter((status) => status >= 500)).toEqual([]);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
  });

  it('limits sign-in attempts per IP: the 11th in 15 minutes gets a 429 in the error shape', async () => {
    const ip = newIp();
    const codes = [];
    for (let i = 0; i < 10; i += 1)
      codes.push((await signIn(`nobody-${i}-${randomBytes(4).toString('hex')}@example.com`, PASSWORD, { ip })).statusCode);
    expect(codes).toEqual(Array(10).fill(401));
    const refused = await signIn(await newAdmin(), PASSWORD, { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many requests. Please wait 15 minutes and try again.',
    });
  });

  it('a new sign-in replaces the session the browser already had', async () => {
    const email = await newAdmin();
    const first = sessionCookie(await signIn(email, PASSWORD))!.value;
    const second = sessionCookie(await signIn(email, PASSWORD, { cookie: first }))!.value;
    expect(second).not.toBe(first);
    expect((await getSession(first)).json()).toEqual({ user: null });
    expect((await getSession(second)).json().user.email).toBe(email);
  });

  it('on https: a Secure __Host- cookie whatever the Host header says, and a cookie without the prefix is not a session', async () => {
    const { app: httpsApp, close } = await buildTestApp({ env: { PUBLIC_URL: 'https://coach.example.com' }, sharing: harness });
    try {
      const email = await newAdmin();
      for (const host of ['coach.example.com', 'localhost:3000', '127.0.0.1']) {
        const response = await signIn(email, PASSWORD, { app: httpsApp, host });
        expect(response.statusCode, host).toBe(200);
        expect(
          response.cookies.find((cookie) => cookie.name === 'hf_session'),
          host,
        ).toBeUndefined();
        const cookie = response.cookies.find((cookie) => cookie.name === '__Host-hf_session');
        expect(cookie, host).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
        expect(cookie!.domain, host).toBeUndefined();

        const read = (name: string) => httpsApp.inject({ url: '/api/auth/session', headers: { host, cookie: `${name}=${cookie!.value}` } });
        expect((await read('__Host-hf_session')).json().user?.email, host).toBe(email);
        // one planted by a subdomain or a plain-http page cannot carry the prefix
        expect((await read('hf_session')).json(), host).toEqual({ user: null });
      }
    } finally {
      await close();
    }
  });

  it('a session in use ends 30 days after sign-in all the same, and its cookie never outlives that', async () => {
    const email = await newAdmin();
    const token = sessionCookie(await signIn(email, PASSWORD))!.value;
    const hash = createHash('sha256').update(token).digest('hex');
    const backdate = (age: string) =>
      pool.query(`UPDATE sessions SET created_at = now() - $2::interval WHERE token_hash = $1`, [hash, age]);

    // one hour left of the 30 days: the idle expiry (7 days) slides only that far
    await backdate('29 days 23 hours');
    const late = await getSession(token);
    expect(late.json().user?.email).toBe(email);
    expect(sessionCookie(late)!.maxAge).toBeLessThanOrEqual(3600);
    expect(sessionCookie(late)!.maxAge).toBeGreaterThan(3500);
    const { rows } = await pool.query<{ left: number }>(
      'SELECT extract(epoch FROM expires_at - now()) AS left FROM sessions WHERE token_hash = $1',
      [hash],
    );
    expect(Number(rows[0]!.left)).toBeLessThanOrEqual(3600);

    // past 30 days it is over, even with a recent idle expiry on the row
    await backdate('30 days 1 minute');
    await pool.query(`UPDATE sessions SET expires_at = now() + interval '1 day' WHERE token_hash = $1`, [hash]);
    const over = await getSession(token);
    expect(over.json()).toEqual({ user: null });
    expect(sessionCookie(over)?.value).toBe('');
    const admin = await app.inject({ url: '/api/admin/overview', headers: { cookie: `hf_session=${token}` } });
    expect(admin.statusCode).toBe(401);
  });

  it('spends the same scrypt work on an unknown email as on a wrong password', async () => {
    const email = await newAdmin();
    const timed = async (check: () => Promise<unknown>) => {
      const start = performance.now();
      await check();
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      known.push(await timed(() => verifyCredentials(pool, email, 'wrong password')));
      unknown.push(await timed(() => verifyCredentials(pool, 'nobody@example.com', 'wrong password')));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    // without the stand-in hash an unknown email answers in a few percent of the time
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('lets attempts through when Redis is down rather than locking every admin out', async () => {
    const deadRedis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    deadRedis.on('error', () => {});
    const throttle = new SignInThrottle(deadRedis, 'test', app.log);
    try {
      for (let i = 0; i < 7; i += 1) {
        await throttle.failed('someone@example.com', '10.0.0.1');
        expect(await throttle.waitFor('someone@example.com', '10.0.0.1')).toBe(0);
      }
    } finally {
      deadRedis.disconnect();
    }
  });
});

describe('get-session and sign-out', () => {
  it('get-session answers { user: null } without a session or with a forged one', async () => {
    expect((await getSession()).json()).toEqual({ user: null });
    const forged = await getSession(randomBytes(32).toString('base64url'));
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toEqual({ user: null });
  });

  it('sign-out ends the session: the cookie is cleared, get-session is null and admin routes answer 401', async () => {
    const email = await newAdmin();
    const signedIn = await signIn(email, PASSWORD);
    const token = sessionCookie(signedIn)!.value;
    expect((await app.inject({ url: '/api/admin/overview', headers: { cookie: `hf_session=${token}` } })).statusCode).toBe(200);

    const out = await app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: `hf_session=${token}` } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ signedOut: true });
    const cleared = sessionCookie(out)!;
    expect(cleared.value).toBe('');
    expect(cleared.expires!.getTime()).toBeLessThan(Date.now());

    expect((await getSession(token)).json()).toEqual({ user: null });
    expect((await app.inject({ url: '/api/admin/overview', headers: { cookie: `hf_session=${token}` } })).statusCode).toBe(401);
  });

  it('sign-out answers 200 without a session too', async () => {
    const out = await app.inject({ method: 'POST', url: '/api/auth/sign-out' });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ signedOut: true });
  });

  it('offers no registration route', async () => {
    const document = (await app.inject('/api/docs/json')).json();
    const authPaths = Object.keys(document.paths).filter((path) => path.startsWith('/api/auth/'));
    expect(authPaths.sort()).toEqual(['/api/auth/change-password', '/api/auth/session', '/api/auth/sign-in', '/api/auth/sign-out']);
  });
});

describe('a generated first password', () => {
  const NEW_PASSWORD = 'a new password of my own';

  /** An admin as the bootstrap makes one without ADMIN_PASSWORD: must change it at first sign-in. */
  async function generatedAdmin(): Promise<string> {
    const email = await newAdmin();
    await pool.query('UPDATE users SET must_change_password = true WHERE email = $1', [email]);
    return email;
  }

  function changePassword(token: string, body: object, csrf: string | null = csrfTokenFor(token)) {
    return app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      remoteAddress: newIp(),
      headers: { cookie: `hf_session=${token}`, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
      payload: body,
    });
  }

  it('keeps the admin area closed until it is changed, then opens it and ends the other sessions', async () => {
    const email = await generatedAdmin();
    const elsewhere = sessionCookie(await signIn(email, PASSWORD))!.value;
    const signedIn = await signIn(email, PASSWORD);
    expect(signedIn.json().user).toMatchObject({ email, mustChangePassword: true });
    const token = sessionCookie(signedIn)!.value;
    expect((await getSession(token)).json().user.mustChangePassword).toBe(true);

    const closed = await app.inject({ url: '/api/admin/overview', headers: { cookie: `hf_session=${token}` } });
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toBe('Change your generated password before using the admin area.');

    // refused, each naming its field, and nothing changes
    expect((await changePassword(token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, null)).statusCode).toBe(403);
    const wrong = await changePassword(token, { currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ currentPassword: 'Your current password is not correct.' });
    const short = await changePassword(token, { currentPassword: PASSWORD, newPassword: 'short pass' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({ newPassword: 'Please choose a password of at least 12 characters.' });
    const same = await changePassword(token, { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json().fields).toEqual({ newPassword: 'Please choose a password different from the current one.' });
    expect(
      (
        await app.inject({
          url: '/api/auth/change-password',
          method: 'POST',
          payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    expect((await getSession(token)).json().user.mustChangePassword).toBe(true);

    const changed = await changePassword(token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      user: { id: expect.any(String), email, role: 'admin', mustChangePassword: false },
      csrfToken: csrfTokenFor(token),
    });
    expect((await app.inject({ url: '/api/admin/overview', headers: { cookie: `hf_session=${token}` } })).statusCode).toBe(200);
    expect((await getSession(elsewhere)).json()).toEqual({ user: null });
    expect((await signIn(email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });
});
