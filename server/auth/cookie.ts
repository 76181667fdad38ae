import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import type { Config } from '#core/config/index.js';
import { SESSION_COOKIE } from './sessions.js';

const isHttps = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https:');

/**
 * Secure exactly when the public site is https. It follows PUBLIC_URL and nothing in the request,
 * so a Host header cannot talk the server out of it (browsers keep Secure cookies on
 * http://localhost, so a local https configuration still works there).
 */
export function cookieOptions(config: Pick<Config, 'publicUrl'>): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: isHttps(config) };
}

/**
 * The session cookie's name: `__Host-hf_session` on https, which browsers accept only when it is
 * Secure, for path / and without a Domain, so no subdomain or plain-http page can plant one.
 * Plain http (a local or test run) cannot use the prefix, so there it is `hf_session`.
 */
export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return isHttps(config) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** Sets (or refreshes, since sessions slide) the session cookie until the session expires. */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.setCookie(sessionCookieName(config), token, { ...cookieOptions(config), maxAge });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), cookieOptions(config));
}
