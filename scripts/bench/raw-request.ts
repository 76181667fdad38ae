import { Agent, request } from 'node:http';

/** What a browser says it can decode: answers large enough come compressed, as a visitor gets them. */
const BROWSER_ENCODINGS = 'br, gzip';

/** Keep-alive connections for a load of `concurrency` requests in flight. */
export const loadAgent = (concurrency: number) => new Agent({ keepAlive: true, maxSockets: concurrency });

/**
 * One request as a browser would send it, its answer read to the end but not decoded: a browser
 * decodes on its own machine, while the benchmarks' load generator shares the server's two cores,
 * where decoding (fetch does, brotli included) cost it several times what the server spent on the
 * answer. Resolves with the status and the body's bytes as they came.
 */
export function rawRequest(
  url: string,
  options: { agent: Agent; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { agent: options.agent, method: options.method ?? 'GET', headers: { 'accept-encoding': BROWSER_ENCODINGS, ...options.headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    sent.once('error', reject);
    sent.end(options.body);
  });
}
