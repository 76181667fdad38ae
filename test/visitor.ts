import { randomUUID } from 'node:crypto';
import { sign } from '@fastify/cookie';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { loadSigningKey, VISITOR_COOKIE } from '#server/visitors/visitor-cookie.js';

/**
 * A visitor made straight in the database, with the signed cookie value their browser would hold
 * (signed with the database's key, made here if the app has not made it yet): for tests that seed
 * a flow in the middle of a journey and then act on it as its visitor.
 */
export async function seedVisitor(pool: pg.Pool): Promise<{ visitorId: string; cookie: string }> {
  const visitorId = randomUUID();
  await pool.query('INSERT INTO visitors (id) VALUES ($1)', [visitorId]);
  return { visitorId, cookie: sign(visitorId, await loadSigningKey(pool)) };
}

/**
 * One browser as `app.inject` sees it: it keeps every cookie the app sets (the visitor cookie,
 * an admin session) and sends them back, so two of these are two visitors. `remoteAddress` makes
 * it come from another client address than the default 127.0.0.1; `visitorCookie` starts it as a
 * visitor made by seedVisitor.
 */
export function injectAs(app: FastifyInstance, options: { remoteAddress?: string; visitorCookie?: string } = {}) {
  const cookies: Record<string, string> = options.visitorCookie ? { [VISITOR_COOKIE]: options.visitorCookie } : {};
  const inject = async (request: InjectOptions | string) => {
    const asked = typeof request === 'string' ? { url: request } : request;
    const response = await app.inject({
      ...asked,
      cookies: { ...cookies, ...asked.cookies },
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
    for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (cookie.maxAge === 0 || cookie.value === '') delete cookies[cookie.name];
      else cookies[cookie.name] = cookie.value;
    }
    return response;
  };
  return Object.assign(inject, {
    cookies,
    /** The Cookie header this browser sends (for a websocket opened as it). */
    cookieHeader: () =>
      Object.entries(cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join('; '),
  });
}

/** A browser (see injectAs). */
export type InjectVisitor = ReturnType<typeof injectAs>;

/**
 * fetch as one browser: the cookies responses set are kept and sent back with every later
 * request (whatever the host, as all tests talk to loopback servers of one site).
 */
export function browserFetch() {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const fetchAsBrowser: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', cookieHeader());
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  return { fetch: fetchAsBrowser, cookieHeader };
}
