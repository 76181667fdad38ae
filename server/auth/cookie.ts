import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { SESSION_COOKIE, SESSION_TTL_DAYS } from './sessions.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Secure unless the site is served over plain http (a local or test deployment) or the request
 * reaches it on a loopback address, where browsers would otherwise drop the cookie.
 */
export function cookieOptions(request: FastifyRequest, config: Config): CookieSerializeOptions {
  const secure = config.publicUrl.startsWith('https:') && !LOOPBACK_HOSTS.has(request.hostname);
  return { httpOnly: true, sameSite: 'lax', path: '/', secure };
}

/** Sets (or refreshes, since sessions slide) the session cookie for the session's full lifetime. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request, config), maxAge: SESSION_TTL_DAYS * 24 * 60 * 60 });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, config));
}
