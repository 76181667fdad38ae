import type { FastifyInstance } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { sendHttpError } from './error-handler.js';

/** The message naming a field with a NUL character. */
export const NUL_MESSAGE = 'must not contain a NUL character';

/** Where in a body a problem was found, and what it is. */
export interface UnstorableText {
  path: string;
  message: string;
}

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, so a string carrying one would fail
 * deep in a query (a 500, with a piece of the payload in the log). This finds it first: the path of
 * the first string (or key) holding one, in document order. It walks with a stack of its own, not
 * by recursion (JSON bodies and frames are refused past INPUT_LIMITS.nesting before they are parsed,
 * server/plugins/input-limits.ts, but a walk must not depend on it).
 */
export function unstorableText(value: unknown, path: string): UnstorableText | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return { path: item.path, message: NUL_MESSAGE };
      continue;
    }
    // raw bytes (the signed webhooks read their bodies so) are not text: their route reads them
    if (!item.value || typeof item.value !== 'object' || ArrayBuffer.isView(item.value)) continue;
    const entries = Array.isArray(item.value)
      ? item.value.map((child, index) => [String(index), child] as const)
      : Object.entries(item.value);
    const children: typeof pending = [];
    for (const [key, child] of entries) {
      if (key.includes('\u0000')) return { path: `${item.path}.${key.replaceAll('\u0000', '\\0')}`, message: NUL_MESSAGE };
      children.push({ value: child, path: `${item.path}.${key}` });
    }
    // the stack takes them last first, so they are looked at in document order (pushed one by
    // one: spreading a wide array into push's arguments overflows the call stack)
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
  }
  return null;
}

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
      const found = unstorableText(value, where);
      if (!found) continue;
      const field = found.path.slice(where.length + 1) || where;
      // answered here rather than thrown: a thrown error would reach the error handler of the route's
      // plugin, and bull-board's has one of its own
      sendHttpError(reply, new HttpError(400, `Invalid ${field}: ${found.message}`, { fields: { [field]: found.message } }));
      return;
    }
    done();
  });
}
