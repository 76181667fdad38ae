import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, WEB_ROOT, type TestServer } from './server.js';

/** Every file of the built site, relative to its folder. */
function builtFiles(dir = WEB_ROOT, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

describe('the built site', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it('publishes no source maps: none built, none referenced, none served', async () => {
    const files = builtFiles();
    const scripts = files.filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(3);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const script of [...scripts, ...files.filter((file) => file.endsWith('.css'))]) {
      expect(readFileSync(join(WEB_ROOT, script), 'utf8'), script).not.toMatch(/[#@] sourceMappingURL=/);
    }
    const response = await fetch(`${server.url}/${scripts[0]}.map`);
    expect(response.status).toBe(404);
  });
});
