import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#test/test-app.js';

let app: FastifyInstance;
let pool: pg.Pool;
let base: string;
let lines: Array<Record<string, unknown>>;
let written: string[];
let harness: TestApp;

beforeAll(async () => {
  harness = await buildTestApp({ listen: true, logLevel: 'info' });
  ({ app, pool, url: base, logs: lines, logLines: written } = harness);
});

afterAll(() => harness?.close());

/** Every line written since `from`, as the raw text a log file would hold. */
const logText = (from: number) => written.slice(from).join('\n');

describe('what the logs keep out', () => {
  it("a visit to a lead's token link: the access log has the path, harmless tags, and no token or email", async () => {
    const from = written.length;
    const token = `tok-${Date.now()}-secret`;
    const response = await fetch(`${base}/?token=${token}&email=jane%40example.com&utm_source=newsletter`);
    await response.arrayBuffer();
    await expect.poll(() => lines.slice(from).some((line) => line.msg === 'request completed')).toBe(true);
    const incoming = lines.slice(from).find((line) => line.msg === 'incoming request') as { req: { url: string } };
    expect(incoming.req.url).toBe('/?token=[redacted]&email=[redacted]&utm_source=newsletter');
    expect(logText(from)).not.toContain(token);
    expect(logText(from)).not.toContain('jane');
  });

  it("the 404 page's report of a missing path and its referer keep no token", async () => {
    const from = written.length;
    const response = await fetch(`${base}/api/client-log/not-found`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', referer: `${base}/results?token=ref-secret-1` },
      body: JSON.stringify({ path: '/old-page?token=path-secret-2&ref=mail' }),
    });
    expect(response.status).toBe(204);
    const logged = lines.slice(from).find((line) => line.msg === 'page not found');
    expect(logged).toMatchObject({ missingPath: '/old-page?token=[redacted]&ref=mail', referer: `${base}/results?token=[redacted]` });
    expect(logText(from)).not.toMatch(/ref-secret-1|path-secret-2/);
  });

  it("PostgreSQL's errors are logged with their code and table, never with the values they quote", async () => {
    const errors: unknown[] = [];
    await pool.query('SELECT $1::uuid', ['uuid-secret-value']).catch((error) => errors.push(error));
    const client = await pool.connect();
    try {
      await client.query('CREATE TEMP TABLE log_probe (email text UNIQUE) ON COMMIT PRESERVE ROWS');
      await client.query("INSERT INTO log_probe VALUES ('dup-secret@example.com')");
      await client.query("INSERT INTO log_probe VALUES ('dup-secret@example.com')").catch((error) => errors.push(error));
    } finally {
      client.release();
    }
    expect(errors).toHaveLength(2);
    // the errors themselves do quote the values: what matters is what the log keeps of them
    expect(JSON.stringify(errors.map((error) => ({ ...(error as object), message: (error as Error).message })))).toMatch(
      /uuid-secret-value[\s\S]*dup-secret/,
    );

    const from = written.length;
    for (const error of errors) app.log.error({ err: error }, 'query failed');
    const logged = lines.slice(from) as Array<{ err: Record<string, unknown> }>;
    expect(logged.map((line) => line.err.code)).toEqual(['22P02', '23505']);
    expect(logged[1]!.err).toMatchObject({ table: 'log_probe', constraint: 'log_probe_email_key' });
    expect(logged[1]!.err).not.toHaveProperty('detail');
    expect(logText(from)).not.toMatch(/uuid-secret-value|dup-secret/);
  });

  it('a bad websocket frame from a client is a warning without a stack, and the socket is closed', async () => {
    const from = written.length;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/ws`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send(Buffer.alloc(100 * 1024, 'x'));
    expect(await closed).toBe(1009);
    await expect
      .poll(() => lines.slice(from).find((line) => line.msg === 'input refused by a limit'))
      .toMatchObject({ level: 40, limit: 'frameBytes', socket: true });
    expect(lines.slice(from).filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(logText(from)).not.toContain('"stack"');
  });
});
