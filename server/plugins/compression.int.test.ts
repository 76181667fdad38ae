import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createOrUpdateLead } from '#core/leads/lead-service.js';
import { PRERENDERED_PAGES } from '#machines/protocol/pages.js';
import { signedInAdmin, type SignedInAdmin } from '#test/admin-session.js';
import { buildTestApp, type TestApp } from '#test/test-app.js';
import { frameText } from '../sockets/frames.js';

/** The build the app serves by default (npm test builds it first). */
const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const KB = 1024;

let harness: TestApp;
let admin: SignedInAdmin;

beforeAll(async () => {
  harness = await buildTestApp({ listen: true });
  admin = await signedInAdmin(harness.pool);
});

afterAll(() => harness?.close());

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  body: Buffer;
}

/** One request over real HTTP, the body kept as the server sent it (fetch would decode it). */
function raw(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${harness.url}${pathname}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function decoded(response: RawResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body);
  if (encoding === 'gzip') return gunzipSync(response.body);
  expect(encoding, 'no other encoding is offered').toBeUndefined();
  return response.body;
}

const varies = (response: RawResponse) =>
  String(response.headers.vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());

/**
 * Asks for `pathname` as a browser (br, gzip), as an older client (gzip only), with identity and
 * with no Accept-Encoding, and checks that a body of 1 KB or more is compressed when accepted,
 * decodes to exactly the plain body, names Accept-Encoding in Vary and keeps every other header;
 * returns the plain answer.
 */
async function expectCompressedWhenAccepted(pathname: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const plain = await raw(pathname, headers);
  expect(plain.headers['content-encoding'], pathname).toBeUndefined();
  expect(plain.body.length, `${pathname} is worth compressing`).toBeGreaterThanOrEqual(KB);
  const asked = [
    { acceptEncoding: 'br, gzip, deflate, zstd', expected: 'br' },
    { acceptEncoding: 'gzip', expected: 'gzip' },
    { acceptEncoding: 'br;q=0, gzip;q=0.5', expected: 'gzip' },
    { acceptEncoding: 'identity', expected: undefined },
  ];
  for (const { acceptEncoding, expected } of asked) {
    const response = await raw(pathname, { ...headers, 'accept-encoding': acceptEncoding });
    const what = `${pathname} with Accept-Encoding: ${acceptEncoding}`;
    expect(response.status, what).toBe(plain.status);
    expect(response.headers['content-encoding'], what).toBe(expected);
    expect(decoded(response).equals(plain.body), `${what} decodes to the plain body`).toBe(true);
    if (expected) expect(response.body.length, what).toBeLessThan(plain.body.length);
    expect(varies(response), what).toContain('accept-encoding');
    for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
      expect(response.headers[name], `${what}: ${name}`).toBe(plain.headers[name]);
    }
    // a known length (not chunked) wherever the body was ready before it was sent
    if (response.headers['content-length'] !== undefined) {
      expect(Number(response.headers['content-length']), what).toBe(response.body.length);
    }
  }
  return plain;
}

/**
 * The built files, by URL path, with their bytes on disk (the compressed siblings left out, and
 * the build's stamp, a dotfile the server never serves).
 */
function builtFiles(): Array<{ url: string; file: string; size: number }> {
  return readdirSync(WEB_DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.(?:br|gz)$/.test(entry.name) && !entry.name.startsWith('.'))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { url: `/${path.relative(WEB_DIST, file).split(path.sep).join('/')}`, file, size: statSync(file).size };
    });
}

describe('the built site', () => {
  it('sends every text file of 1 KB or more brotli or gzip compressed as accepted, ahead of time, with its length, type and cache lifetime', async () => {
    const texts = builtFiles().filter(({ file, size }) => TEXT_FILE.test(file) && size >= KB);
    // the start chunk, the stylesheet and most route chunks: a build without them is not the site
    expect(texts.length).toBeGreaterThan(20);
    expect(texts.some(({ url }) => url.endsWith('.css'))).toBe(true);
    for (const { url, file } of texts) {
      const plain = await expectCompressedWhenAccepted(url);
      expect(plain.body.equals(readFileSync(file)), url).toBe(true);
      // the file written by the build, so its length is known and nothing is compressed per request
      const br = await raw(url, { 'accept-encoding': 'br' });
      expect(Number(br.headers['content-length']), url).toBe(readFileSync(`${file}.br`).length);
      expect(br.body.equals(readFileSync(`${file}.br`)), url).toBe(true);
    }
  });

  it('sends smaller text files and images as they are, with their length', async () => {
    const others = builtFiles().filter(({ file, size }) => !TEXT_FILE.test(file) || size < KB);
    expect(others.some(({ url }) => url.endsWith('.png'))).toBe(true);
    expect(others.some(({ file }) => TEXT_FILE.test(file))).toBe(true);
    for (const { url, file, size } of others) {
      const response = await raw(url, { 'accept-encoding': 'br, gzip' });
      expect(response.status, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(Number(response.headers['content-length']), url).toBe(size);
      expect(response.body.equals(readFileSync(file)), url).toBe(true);
    }
  });

  it('answers HEAD with the headers of the compressed file and no body, and a revalidation with 304', async () => {
    const largest = builtFiles()
      .filter(({ file }) => file.endsWith('.js'))
      .sort((a, b) => b.size - a.size)[0]!;
    const get = await raw(largest.url, { 'accept-encoding': 'br, gzip' });
    const head = await raw(largest.url, { 'accept-encoding': 'br, gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'cache-control', 'etag', 'vary']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
    const again = await raw(largest.url, { 'accept-encoding': 'br, gzip', 'if-none-match': String(get.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // the .br and .gz files are the plain file's encodings, never addresses of their own
    expect((await raw(`${largest.url}.br`)).status).toBe(404);
  });
});

describe('the rendered public pages', () => {
  it('sends each page, and the not-found page, compressed as accepted and varying by cookie too', async () => {
    for (const page of [...PRERENDERED_PAGES, '/no-such-page']) {
      const plain = await expectCompressedWhenAccepted(page);
      expect(plain.status, page).toBe(page === '/no-such-page' ? 404 : 200);
      expect(varies(plain), page).toEqual(['cookie', 'accept-encoding']);
      expect(plain.body.toString(), page).toContain('<div id="root">');
    }
  });

  it('sends whoever may be signed in the page that starts the site at once, compressed too', async () => {
    const cookie = { cookie: `${harness.app.sessionCookieName}=anything` };
    const plain = await expectCompressedWhenAccepted('/about', cookie);
    expect(plain.body.toString()).toContain('<div id="root" data-start="now">');
  });

  it('answers HEAD for a page with the compressed length and no body', async () => {
    const get = await raw('/', { 'accept-encoding': 'br' });
    const head = await raw('/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect(head.body.length).toBe(0);
  });
});

describe('API answers', () => {
  it('compresses JSON of 1 KB or more as accepted', async () => {
    await expectCompressedWhenAccepted('/api/docs/json');
    await expectCompressedWhenAccepted('/api/admin/machines', admin.headers);
    await expectCompressedWhenAccepted('/api/admin/jobs/summary', admin.headers);
  });

  it('compresses the CSV export as accepted', async () => {
    const marker = `compress-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 20; i++)
      await createOrUpdateLead(harness.pool, { email: `${marker}-${i}@example.com`, name: `Lead ${i} ${marker}` });
    const plain = await expectCompressedWhenAccepted(`/api/admin/leads.csv?q=${marker}`, admin.headers);
    expect(plain.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(
      plain.body
        .toString()
        .split('\n')
        .filter((line) => line.includes(marker)),
    ).toHaveLength(20);
  });

  it('answers HEAD with the plain length, no encoding and no body', async () => {
    // Fastify's HEAD routes end the body before @fastify/compress sees it: they describe the plain
    // answer, which is one of those the server sends (to a client that accepts no compression)
    const plain = await raw('/api/admin/machines', admin.headers);
    const head = await raw('/api/admin/machines', { ...admin.headers, 'accept-encoding': 'br, gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBe(String(plain.body.length));
    expect(varies(head)).toContain('accept-encoding');
    expect(head.body.length).toBe(0);
  });

  it('sends smaller JSON as it is, with its length', async () => {
    for (const url of ['/healthz', '/api/config', '/api/auth/session']) {
      const response = await raw(url, { ...admin.headers, 'accept-encoding': 'br, gzip' });
      expect(response.status, url).toBe(200);
      expect(response.body.length, url).toBeLessThan(KB);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(Number(response.headers['content-length']), url).toBe(response.body.length);
    }
  });

  it('keeps a websocket working for a browser that accepts compressed answers', async () => {
    const socket = new WebSocket(`${harness.url.replace('http', 'ws')}/api/ws`, { headers: { 'accept-encoding': 'br, gzip' } });
    const hello = new Promise<unknown>((resolve) => socket.once('message', (data) => resolve(JSON.parse(frameText(data)))));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    expect(await hello).toEqual({ type: 'hello' });
    socket.close();
  });
});
