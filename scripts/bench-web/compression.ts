import { readdirSync, statSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PRERENDERED_PAGES } from '#machines/protocol/pages.js';

/** What a browser says it accepts (the figures' "sent" bytes). */
const BROWSER = 'br, gzip';
/** Text bodies of at least this size must be compressed when accepted (server/plugins/compression.ts). */
const THRESHOLD = 1024;
const TEXT_TYPE = /^text\/|[+/]json\b|[+/]xml\b|javascript/;

interface Sent {
  status: number;
  type: string;
  encoding: string | undefined;
  /** The body's bytes as sent, before decoding. */
  body: Buffer;
}

/** GET over real HTTP with this Accept-Encoding (none when undefined), the body as sent (fetch would decode it). */
function sent(url: string, acceptEncoding?: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          type: response.headers['content-type'] ?? '',
          encoding: response.headers['content-encoding'],
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** The bytes the server sends for `url` to a client that accepts only gzip. */
export async function gzipBytesSent(url: string): Promise<number> {
  return (await sent(url, 'gzip')).body.length;
}

function decoded(answer: Sent): Buffer {
  if (answer.encoding === 'br') return brotliDecompressSync(answer.body);
  if (answer.encoding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The compression figures: the home page's HTML and each asset it names, raw against what is sent
 * to a browser (`br, gzip`), and whether every text answer of 1 KB or more (each built file, each
 * rendered page, a few API answers) is sent compressed, decoding to the plain body.
 */
export async function compressionReport(base: string, builtDir: string): Promise<string> {
  const lines = ['', `Compression (Accept-Encoding: ${BROWSER} against none):`];
  const row = (label: string, raw: number, compressed: number, encoding = '') =>
    lines.push(`  ${label.padEnd(44)} ${kb(raw).padStart(9)} raw  ${kb(compressed).padStart(9)} sent${encoding && ` (${encoding})`}`);
  const both = (url: string) => Promise.all([sent(`${base}${url}`), sent(`${base}${url}`, BROWSER)]);

  const home = await sent(`${base}/`);
  const assets = [...home.body.toString().matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  let raw = 0;
  let total = 0;
  for (const url of ['/', ...new Set(assets)]) {
    const [plain, compressed] = await both(url);
    raw += plain.body.length;
    total += compressed.body.length;
    row(url === '/' ? '/ (HTML)' : url, plain.body.length, compressed.body.length, compressed.encoding ?? 'plain');
  }
  row('home page and its assets', raw, total);

  const files = readdirSync(builtDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.(?:br|gz)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  const built = files.map((file) => `/${path.relative(builtDir, file).split(path.sep).join('/')}`);
  const largestChunk = built
    .filter((url) => url.endsWith('.js'))
    .sort((a, b) => statSync(path.join(builtDir, b)).size - statSync(path.join(builtDir, a)).size)[0];
  if (largestChunk) {
    const [plain, compressed] = await both(largestChunk);
    row(`${largestChunk} (largest chunk)`, plain.body.length, compressed.body.length, compressed.encoding ?? 'plain');
  }
  const urls = [...built, ...PRERENDERED_PAGES, '/no-such-page', '/api/docs/json', '/api/config', '/robots.txt', '/sitemap.xml'];
  const misses: string[] = [];
  let texts = 0;
  for (const url of urls) {
    const plain = await sent(`${base}${url}`);
    if (!TEXT_TYPE.test(plain.type) || plain.body.length < THRESHOLD) continue;
    texts++;
    const compressed = await sent(`${base}${url}`, BROWSER);
    if (!compressed.encoding || !decoded(compressed).equals(plain.body)) misses.push(url);
  }
  lines.push(
    `  every text response over 1 KB compressed when accepted: ${misses.length === 0 ? 'yes' : 'no'} (${texts - misses.length} of ${texts})${misses.length ? `; not: ${misses.join(', ')}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
