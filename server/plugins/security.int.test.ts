import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '#test/helpers.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { registerErrorHandler } from './error-handler.js';
import { rateLimits, security } from './security.js';

let app: FastifyInstance;
let redis: Redis;
let harness: TestApp;

/** A fresh client address, so counts from other tests never mix in. */
function newIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${(c! % 250) + 1}`;
}

beforeAll(async () => {
  harness = await buildTestApp({ ready: false });
  ({ app, redis } = harness);
  // a sibling plugin registered after app.ts's own, as another engineer's routes would be
  await app.register((child, _options, done) => {
    child.get('/test/limited', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, () => ({ ok: true }));
    child.post('/test/contact-like', { config: { rateLimit: rateLimits.contact } }, () => ({ ok: true }));
    done();
  });
});

afterAll(() => harness?.close());

function csp(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values.join(' ')];
      }),
  );
}

describe('security headers', () => {
  it('sends a CSP the site works under, and the other helmet headers, on pages and API routes alike', async () => {
    const responses = await Promise.all([
      app.inject({ url: '/', headers: { accept: 'text/html' } }),
      app.inject({ url: '/admin/leads', headers: { accept: 'text/html' } }),
      app.inject('/api/auth/session'),
      app.inject('/healthz'),
      app.inject('/api/no-such-route'),
    ]);
    for (const response of responses) {
      const policy = csp(response.headers['content-security-policy']);
      expect(Object.fromEntries(policy)).toEqual({
        'default-src': "'self'",
        'script-src': "'self'",
        'script-src-attr': "'none'",
        'style-src': "'self'",
        'img-src': "'self' data:",
        'font-src': "'self'",
        'connect-src': "'self' ws://localhost:3000",
        'object-src': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
      });
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin-allow-popups',
        'cross-origin-resource-policy': 'same-origin',
      });
      // a plain-http deployment gets neither HSTS nor upgrade-insecure-requests
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('gives the API docs page a CSP swagger-ui runs under, and still serves it', async () => {
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBeLessThan(400);
      const policy = csp(response.headers['content-security-policy']);
      expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
      expect(policy.get('script-src')).toBe("'self'");
      expect(policy.get('frame-ancestors')).toBe("'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('an https deployment adds HSTS, upgrade-insecure-requests and a wss socket origin', async () => {
    const https = Fastify();
    try {
      await security(https, { config: testConfig({ PUBLIC_URL: 'https://coach.example.com' }), redis });
      https.get('/', () => 'ok');
      const response = await https.inject('/');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const policy = csp(response.headers['content-security-policy']);
      expect(policy.has('upgrade-insecure-requests')).toBe(true);
      expect(policy.get('connect-src')).toBe("'self' wss://coach.example.com");
    } finally {
      await https.close();
    }
  });
});

describe('rate limits', () => {
  it('a route-level rateLimit in a sibling plugin takes effect, per IP, and a 429 comes back in the error shape', async () => {
    const ip = newIp();
    const hit = () => app.inject({ url: '/test/limited', remoteAddress: ip });
    expect((await hit()).statusCode).toBe(200);
    const second = await hit();
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await hit();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: 'Too many requests. Please wait 1 minute and try again.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another address is counted on its own
    expect((await app.inject({ url: '/test/limited', remoteAddress: newIp() })).statusCode).toBe(200);
  });

  it('the contact preset allows 5 per IP, then refuses', async () => {
    const ip = newIp();
    const codes = [];
    for (let i = 0; i < 6; i += 1)
      codes.push((await app.inject({ method: 'POST', url: '/test/contact-like', remoteAddress: ip })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('routes without a rateLimit config are not limited', async () => {
    const ip = newIp();
    const codes = new Set<number>();
    for (let i = 0; i < 30; i += 1) codes.add((await app.inject({ url: '/healthz', remoteAddress: ip })).statusCode);
    expect([...codes]).toEqual([200]);
  });

  it('lets requests through while Redis is down rather than locking everyone out', async () => {
    const deadRedis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    deadRedis.on('error', () => {});
    const isolated = Fastify();
    registerErrorHandler(isolated);
    try {
      await security(isolated, { config: testConfig(), redis: deadRedis });
      await isolated.register((child, _options, done) => {
        child.get('/limited', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, () => ({ ok: true }));
        done();
      });
      const codes = [];
      for (let i = 0; i < 3; i += 1) codes.push((await isolated.inject('/limited')).statusCode);
      expect(codes).toEqual([200, 200, 200]);
    } finally {
      await isolated.close();
      deadRedis.disconnect();
    }
  });
});
