import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../scripts/services/free-port.js';
import { runTs } from '../test/processes.js';
import { scratchDatabase, testEnv } from '../test/helpers.js';

describe('server/main.ts as a process', () => {
  it('exits non-zero naming the variable when the configuration is bad', async () => {
    const server = runTs('server/main.ts', testEnv({ PORT: 'eighty' }));
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toContain('PORT: expected a port number (got "eighty")');
  });

  it('migrates, bootstraps one admin across two starts, serves, and stops on SIGTERM with exit 0 within 10 s', async () => {
    const databaseUrl = await scratchDatabase({ migrated: false });
    const port = await freePort();
    const env = testEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });

    const first = runTs('server/main.ts', env);
    await first.waitFor(`Server listening at http://127.0.0.1:${port}`);
    expect(first.output()).toMatch(/Admin account: admin@localhost {2}one-time password: [A-Za-z0-9]{20}/);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);

    const sentAt = Date.now();
    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.at - sentAt).toBeLessThan(10_000);

    const second = runTs('server/main.ts', env);
    await second.waitFor(`Server listening at http://127.0.0.1:${port}`);
    expect(second.output()).not.toContain('one-time password');
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const client = new pg.Client(databaseUrl);
    await client.connect();
    const admins = await client.query("SELECT email FROM users WHERE role = 'admin'");
    await client.end();
    expect(admins.rows).toEqual([{ email: 'admin@localhost' }]);
  });
});
