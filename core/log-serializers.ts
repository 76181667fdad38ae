import { pino } from 'pino';

/**
 * Query keys whose values are safe to log: paging, sorting and filter codes, campaign tags. Every
 * other value (a lead's token, an email, an admin's search, a Stripe session id) is written as
 * [redacted], so a link someone was sent never lands in a log file.
 */
const LOGGABLE_QUERY_KEYS = new Set([
  'page',
  'pageSize',
  'limit',
  'offset',
  'sort',
  'dir',
  'tier',
  'source',
  'status',
  'state',
  'queue',
  'range',
  'from',
  'to',
  'ref',
  'inspect',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
]);

const REDACTED = '[redacted]';

/** `url` with the value of every query key not known to be harmless replaced by [redacted]. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const hash = url.indexOf('#', mark);
  const query = url.slice(mark + 1, hash < 0 ? undefined : hash);
  const kept = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals < 0 ? pair : pair.slice(0, equals);
      let name = key;
      try {
        name = decodeURIComponent(key.replaceAll('+', ' '));
      } catch {
        // a malformed escape is logged as sent, and its value hidden all the same
      }
      return equals < 0 || LOGGABLE_QUERY_KEYS.has(name) ? pair : `${key}=${REDACTED}`;
    });
  return `${url.slice(0, mark)}?${kept.join('&')}`;
}

/** Fastify's request shape in a log line, with its URL redacted. */
function serializeRequest(request: { method?: string; url?: string; ip?: string; host?: string; socket?: { remotePort?: number } }) {
  return {
    method: request.method,
    url: redactUrl(request.url ?? ''),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Fields of PostgreSQL's errors that quote the rows or statements they concern. */
const DATABASE_VALUE_FIELDS = ['detail', 'where', 'internalQuery', 'hint', 'query', 'parameters'];

/** True for a pg DatabaseError (PostgreSQL's answer), which carries a severity and a SQLSTATE. */
function isDatabaseError(value: Record<string, unknown>): boolean {
  return typeof value.severity === 'string' && typeof value.code === 'string' && /^[0-9A-Z]{5}$/.test(value.code);
}

/** PostgreSQL quotes values (and names) in double quotes: `invalid input syntax for type uuid: "…"`. */
const maskQuoted = (text: string) => text.replace(/"(?:[^"]|"")*"/g, '"…"');

type SerializedError = ReturnType<typeof pino.stdSerializers.err>;

/** Removes what a database error says about values, here and in its causes. */
function scrub(serialized: SerializedError): SerializedError {
  if (isDatabaseError(serialized)) {
    for (const field of DATABASE_VALUE_FIELDS) delete serialized[field];
    serialized.message = maskQuoted(serialized.message);
    serialized.stack = maskQuoted(serialized.stack);
  }
  if (serialized.cause && typeof serialized.cause === 'object') scrub(serialized.cause);
  if (Array.isArray(serialized.aggregateErrors))
    for (const inner of serialized.aggregateErrors as unknown[]) if (inner && typeof inner === 'object') scrub(inner as SerializedError);
  return serialized;
}

/** pino's error serializer, minus the values a database error quotes. */
function serializeError(error: Error): SerializedError {
  const serialized = pino.stdSerializers.err(error);
  // anything not error-like (null, a string) comes back as it was logged
  return serialized && typeof serialized === 'object' ? scrub(serialized) : serialized;
}

/** The serializers both Fastify and the worker log with. */
export const logSerializers = { req: serializeRequest, err: serializeError };
