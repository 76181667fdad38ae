import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Bodies smaller than this save less than compressing them costs. */
const THRESHOLD = 1024;
/** The types compressed (@fastify/compress's own default): JSON, text/* but event streams, XML; never a PDF or an image. */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u;

/** Whether @fastify/compress compresses this answer for a client that accepts it. */
function compressible(reply: FastifyReply, payload: unknown): boolean {
  if (payload === null || payload === undefined || reply.hasHeader('content-encoding')) return false;
  const type = reply.getHeader('content-type');
  if (!COMPRESSIBLE.test(typeof type === 'string' ? type : 'application/json')) return false;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) return Buffer.byteLength(payload) >= THRESHOLD;
  return typeof (payload as { pipe?: unknown }).pipe === 'function';
}

/**
 * Compresses the answers of every route registered after it (the API's JSON, the CSV export, the
 * API docs, the admin's job board) when the client accepts br or gzip: bodies of 1 KB or more of
 * a text type, with brotli at quality 4 (about 0.6 ms for 38 KB, where quality 11 takes 100 ms).
 * Registered on the root instance (the plugin is not encapsulated) after the static site, whose
 * files and pages are compressed once, ahead of time (server/plugins/static-site.ts). Request
 * bodies are not decompressed: no client of ours sends them compressed.
 */
export async function compressAnswers(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: THRESHOLD,
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    // up to 64 KB compressed at once (about 1 ms), with an exact Content-Length; larger bodies stream through zlib's thread pool
    syncThreshold: 64 * 1024,
    globalDecompression: false,
  });
  // the plugin names Accept-Encoding in Vary only when it compresses; an answer sent plain to a client
  // that accepts no compression varies by it just as much (a cache must not hand it to a browser)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (compressible(reply, payload)) {
      const vary = reply.getHeader('vary');
      if (vary === undefined) reply.header('vary', 'accept-encoding');
      else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
    }
    done(null, payload);
  });
}
