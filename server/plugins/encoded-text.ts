import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The compressions a browser is offered, best first. */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** A text sent often, as its bytes and the same bytes compressed each way. */
export type EncodedText = Readonly<Record<Encoding | 'identity', Buffer>>;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compresses a text once, at the best quality of each encoding, in zlib's thread pool rather than on
 * the event loop (brotli 11 takes about 100 ms for a 38 KB page): for answers built once and sent
 * many times, such as the rendered public pages.
 */
export async function encodeText(text: string): Promise<EncodedText> {
  const identity = Buffer.from(text);
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz };
}

/**
 * Sends the encoding of `text` the request accepts (br before gzip; none without Accept-Encoding or
 * with `identity`), saying that the answer depends on Accept-Encoding (and on what `vary` already names).
 */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, text: EncodedText, vary: string[] = []): FastifyReply {
  const header = request.headers['accept-encoding'];
  const encoding = header ? negotiate(header, [...ENCODINGS]) : null;
  reply.header('vary', [...vary, 'accept-encoding'].join(', '));
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(text[encoding ?? 'identity']);
}
