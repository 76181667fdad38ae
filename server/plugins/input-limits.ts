import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '#core/http-error.js';

/**
 * The limits every request and socket frame meets before any route reads it (docs/security.md,
 * "Input limits"; decision 0047). Each refusal is a 4xx naming the limit, logged once at warn
 * without a stack: it is the client's doing, not a fault of ours.
 */
export const INPUT_LIMITS = {
  /** Bytes of a request body, whatever its type (fastify's bodyLimit): 413. */
  bodyBytes: 256 * 1024,
  /** Bytes of one websocket message (ws's maxPayload): the socket is closed with 1009. */
  frameBytes: 64 * 1024,
  /** Arrays and objects open at once in a JSON body or frame: 400 naming the field. */
  nesting: 32,
  /** Characters of a request's path and query: 414. */
  urlLength: 8 * 1024,
  /** Parameters in a query string: 400. */
  queryParameters: 64,
  /** Fields in a form body: 400. */
  formFields: 64,
} as const;

/** The message naming a field nested past the limit. */
export const NESTING_MESSAGE = `must not be nested more than ${INPUT_LIMITS.nesting} levels deep`;
/** The message of a body past the size limit. */
export const BODY_SIZE_MESSAGE = `must not be larger than ${INPUT_LIMITS.bodyBytes / 1024} KB`;

/** Which limit refused a request, and what is logged of it. */
export type InputLimit = keyof typeof INPUT_LIMITS;

/**
 * Logs a refusal by an input limit: one line at warn, no stack, nothing of the input but a field's
 * name (the request logger's reqId ties it to the access log's line for the request).
 */
export function logRefusal(log: FastifyBaseLogger, limit: InputLimit, details: Record<string, unknown> = {}): void {
  log.warn({ limit, max: INPUT_LIMITS[limit], ...details }, 'input refused by a limit');
}

/** The answer to a refusal: `status`, the message naming the field and the limit, and its fields. */
export function limitError(status: number, field: string, message: string): HttpError {
  return new HttpError(status, `Invalid ${field}: ${message}`, { fields: { [field]: message } });
}

const OPENERS = new Set(['{', '[']);
/** The longest field name a refusal repeats. */
const FIELD_NAME_MAX = 100;

/**
 * Where JSON text nests past `max` arrays and objects, without parsing it and without recursion
 * (one pass over the characters, strings skipped): null when it does not, else the top-level field
 * holding the too-deep part (its key, or its index in a top-level array; '' for the whole text).
 * The text need not be valid JSON: the parser that runs after this says what else is wrong.
 */
export function nestedPast(text: string, max: number = INPUT_LIMITS.nesting): { field: string } | null {
  let depth = 0;
  // what the top level is, and the field of it being read
  let topIsObject = false;
  let expectingKey = false;
  let index = 0;
  let key = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '"') {
      const start = at;
      for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === '\\') at++;
      if (depth === 1 && topIsObject && expectingKey) {
        try {
          key = JSON.parse(text.slice(start, at + 1)) as string;
        } catch {
          key = text.slice(start + 1, at);
        }
        // a field's name is echoed in the answer and the log: a long one is cut
        key = key.slice(0, FIELD_NAME_MAX);
      }
    } else if (OPENERS.has(char)) {
      depth++;
      if (depth === 1) {
        topIsObject = char === '{';
        expectingKey = topIsObject;
      }
      if (depth > max) return { field: depth === 1 ? '' : topIsObject ? key : String(index) };
    } else if (char === '}' || char === ']') {
      depth--;
    } else if (depth === 1) {
      if (char === ',') {
        if (topIsObject) expectingKey = true;
        else index++;
      } else if (char === ':') expectingKey = false;
    }
  }
  return null;
}

/**
 * Checks the nesting of JSON text read as raw bytes (the signed webhooks) before it is parsed: an
 * HttpError 400 naming the field (`where` names the whole text), logged at warn on `log`.
 */
export function assertNestingWithin(text: string, where: string, log: FastifyBaseLogger): void {
  const deep = nestedPast(text);
  if (!deep) return;
  logRefusal(log, 'nesting', { field: deep.field || where });
  throw limitError(400, deep.field || where, NESTING_MESSAGE);
}
