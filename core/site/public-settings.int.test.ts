import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ChannelListener } from '#core/db/channel-listener.js';
import { createPool } from '#core/db/pool.js';
import { scratchDatabase } from '#test/helpers.js';
import { until } from '#test/until.js';
import { PublicSettings } from './public-settings.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Settings kept over a pool whose queries are counted: a read from memory asks nothing. */
async function counted() {
  const pool = createPool(await scratchDatabase(), 4);
  let queries = 0;
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<typeof pool.query>) => {
    queries += 1;
    return query(...args);
  }) as typeof pool.query;
  const notices = new ChannelListener(pool, pino({ level: 'silent' }));
  const settings = new PublicSettings(pool, notices);
  cleanups.push(async () => {
    await notices.stop();
    await pool.end();
  });
  return { pool, settings, notices, queries: () => queries };
}

const communityOf = async (settings: PublicSettings) => (await settings.read()).site.communityUrl;

describe('the settings visitors see', () => {
  it('are read once and kept while a change would be heard, then read again after any writer changes them', async () => {
    const { pool, settings, notices, queries } = await counted();
    notices.startSoon();
    // before LISTEN holds, every read goes to the database
    await until(async () => {
      await settings.read();
      const before = queries();
      await settings.read();
      return queries() === before;
    });
    const before = queries();
    for (let i = 0; i < 20; i += 1) await settings.read();
    expect(queries()).toBe(before);

    // a change written straight in SQL (no code of ours told) reaches the next reads
    await pool.query(
      `INSERT INTO site_settings (id, settings) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings`,
      [JSON.stringify({ communityUrl: 'https://community.example/changed' })],
    );
    await until(async () => (await communityOf(settings)) === 'https://community.example/changed', 5_000);
    await pool.query(
      "INSERT INTO integration_settings (key, enabled, configured, value) VALUES ('scheduling', true, true, 'https://booking.example/new') ON CONFLICT (key) DO UPDATE SET enabled = true, configured = true, value = EXCLUDED.value",
    );
    await until(async () => (await settings.read()).bookingUrl === 'https://booking.example/new', 5_000);
  });

  it('without a listener every read asks the database, so nothing stale is served', async () => {
    const { pool, settings, queries } = await counted();
    await settings.read();
    const before = queries();
    await settings.read();
    expect(queries()).toBeGreaterThan(before);
    await pool.query('INSERT INTO site_settings (id, settings) VALUES (true, $1)', [
      JSON.stringify({ communityUrl: 'https://c.example/x' }),
    ]);
    expect(await communityOf(settings)).toBe('https://c.example/x');
  });
});
