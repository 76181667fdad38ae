import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDatabase } from '#test/helpers.js';
import { until } from '#test/until.js';
import { ChannelListener } from './channel-listener.js';
import { createPool } from './pool.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a channel listener', () => {
  it('hears several channels on one connection, each notice to its owner, and tells every owner when it listens again', async () => {
    const pool = createPool(await scratchDatabase(), 4);
    const notices = new ChannelListener(pool, pino({ level: 'silent' }));
    cleanups.push(async () => {
      await notices.stop();
      await pool.end();
    });
    const heard: string[] = [];
    const relistened: string[] = [];
    notices
      .on('first_channel', { onNotify: (payload) => heard.push(`first:${payload}`), onRelisten: () => relistened.push('first') })
      .on('second_channel', { onNotify: (payload) => heard.push(`second:${payload}`), onRelisten: () => relistened.push('second') });
    expect(() => notices.on('first_channel', { onNotify: () => {} })).toThrow(/has an owner/);
    expect(notices.listening).toBe(false);
    await notices.start();
    expect(notices.listening).toBe(true);
    expect(() => notices.on('late_channel', { onNotify: () => {} })).toThrow(/after the listener started/);

    const listeners = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    );
    expect(listeners.rows[0]!.n).toBe(1);
    await pool.query("SELECT pg_notify('second_channel', 'b'), pg_notify('first_channel', 'a'), pg_notify('other_channel', 'x')");
    await until(() => heard.length === 2);
    expect(heard.sort()).toEqual(['first:a', 'second:b']);

    // PostgreSQL drops the connection: listening stops counting until it is made again, then every owner catches up
    await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
    await until(() => relistened.length === 2, 5_000);
    expect(relistened.sort()).toEqual(['first', 'second']);
    expect(notices.listening).toBe(true);
    await pool.query("SELECT pg_notify('first_channel', 'again')");
    await until(() => heard.includes('first:again'));

    await notices.stop();
    expect(notices.listening).toBe(false);
  });
});
