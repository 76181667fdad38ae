import type { FastifyInstance } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { sendHttpError } from './error-handler.js';

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, so a string carrying one would fail
 * deep in a query (a 500, with a piece of the payload in the log). This finds it first: the path of
 * the first string (or key) holding one, or null.
 */
export function unstorableTextAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableTextAt(item, `${path}.${index}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${path}.${key.replaceAll('\u0000', '\\0')}`;
      const found = unstorableTextAt(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** The message naming a field with a NUL character. */
export const NUL_MESSAGE = 'must not contain a NUL character';

/**
 * Refuses, before validation, any request whose body, query or route parameters carry text
 * PostgreSQL cannot store: 400 naming the field, nothing stored. (Socket frames are checked the
 * same way in server/sockets/frames.ts.) Registered on the root instance, so it covers every route.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  // a callback hook, not an async one: every request passes through it
  app.addHook('preValidation', (request, reply, done) => {
    for (const [where, value] of [
      ['body', request.body],
      ['query', request.query],
      ['params', request.params],
    ] as const) {
      const at = unstorableTextAt(value, where);
      if (!at) continue;
      const field = at.slice(where.length + 1) || where;
      // answered here rather than thrown: a thrown error would reach the error handler of the route's
      // plugin, and bull-board's has one of its own
      sendHttpError(reply, new HttpError(400, `Invalid ${field}: ${NUL_MESSAGE}`, { fields: { [field]: NUL_MESSAGE } }));
      return;
    }
    done();
  });
}
