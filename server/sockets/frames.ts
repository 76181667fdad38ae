import type { WebSocket } from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RawData } from 'ws';
import type { z } from 'zod';
import { logRefusal, NESTING_MESSAGE, nestedPast } from '../plugins/input-limits.js';
import { unstorableText } from '../plugins/storable-text.js';

/** The longest error text a socket error frame carries. */
const ERROR_MAX = 500;

/** A socket message's text, whichever of ws's shapes it arrives in (a Buffer, an ArrayBuffer or a Buffer's fragments). */
export function frameText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

/**
 * Reads a browser's socket frame: its nesting (INPUT_LIMITS.nesting, checked on the text before it
 * is parsed; a refusal is logged at warn on `log`), JSON, then the schema. A frame that fails any
 * gets an error text naming the problem (and its field), for an error frame; the connection stays open.
 */
export function readClientFrame<T>(raw: RawData, schema: z.ZodType<T>, log: FastifyBaseLogger): { frame: T } | { error: string } {
  const text = frameText(raw);
  const deep = nestedPast(text);
  if (deep) {
    logRefusal(log, 'nesting', { socket: true, field: deep.field || 'frame' });
    return { error: `${deep.field || 'frame'}: ${NESTING_MESSAGE}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'Messages must be JSON.' };
  }
  const unstorable = unstorableText(data, 'frame');
  if (unstorable) return { error: `${unstorable.path.slice('frame.'.length) || 'frame'}: ${unstorable.message}` };
  const parsed = schema.safeParse(data);
  if (parsed.success) return { frame: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { error: `Unknown or malformed message: ${where}${issue?.message ?? 'invalid'}`.slice(0, ERROR_MAX) };
}

/**
 * @fastify/websocket's handler for errors on a socket. A client's bad frame (too large, invalid
 * UTF-8, a broken frame) or a dropped connection is the client's doing: a warning without a stack.
 * Anything else is ours and logged as an error. The socket is dropped either way.
 */
export function socketErrorHandler(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: unknown }).code;
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    logRefusal(request.log, 'frameBytes', { socket: true });
  } else if (typeof code === 'string' && (code.startsWith('WS_ERR_') || code === 'ECONNRESET' || code === 'EPIPE')) {
    request.log.warn({ code, reason: error.message }, 'bad websocket frame or dropped connection; socket closed');
  } else {
    request.log.error({ err: error }, 'websocket handler failed');
  }
  socket.terminate();
}
