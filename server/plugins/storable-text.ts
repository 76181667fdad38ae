import type { FastifyInstance } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { sendHttpError } from './error-handler.js';

/** The message naming a field with a NUL character. */
export const NUL_MESSAGE = 'must not contain a NUL character';

/** No request or frame the site takes nests deeper than a few levels; a much deeper one is refused. */
export const MAX_NESTING = 32;
export const NESTING_MESSAGE = `must not be nested more than ${MAX_NESTING} levels deep`;

/** Where in a body a problem was found, and what it is. */
export interface UnstorableText {
  path: string;
  message: string;
}

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, so a string carrying one would fail
 * deep in a query (a 500, with a piece of the payload in the log). This finds it first: the path of
 * the first string (or key) holding one, in document order. It walks with a stack of its own, not
 * by recursion, so a body nested thousands deep cannot overflow the call stack; it stops at
 * MAX_NESTING and names the outermost field holding the too-deep part.
 */
export function unstorableText(value: unknown, path: string): UnstorableText | null {
  const pending: Array<{ value: unknown; path: string; depth: number; top: string }> = [{ value, path, depth: 0, top: path }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return { path: item.path, message: NUL_MESSAGE };
      continue;
    }
    if (!item.value || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_NESTING) return { path: item.top, message: NESTING_MESSAGE };
    const entries = Array.isArray(item.value)
      ? item.value.map((child, index) => [String(index), child] as const)
      : Object.entries(item.value);
    const children: typeof pending = [];
    for (const [key, child] of entries) {
      if (key.includes('\u0000')) return { path: `${item.path}.${key.replaceAll('\u0000', '\\0')}`, message: NUL_MESSAGE };
      const childPath = `${item.path}.${key}`;
      children.push({ value: child, path: childPath, depth: item.depth + 1, top: item.depth === 0 ? childPath : item.top });
    }
    // the stack takes them last first, so they are looked at in document order
    pending.push(...children.reverse());
  }
  return null;
}

/**
 * Refuses, before validation, any request whose body, query or route parameters carry text
 * PostgreSQL cannot store, or nest too deeply: 400 naming the field, nothing stored. (Socket frames are checked the
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
