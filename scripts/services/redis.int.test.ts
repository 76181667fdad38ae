import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { NO_REDIS_MESSAGE, RedisUnavailableError, findOnPath, redisAnswers, spawnRedis } from './redis.js';

describe('spawned redis-server', () => {
  it('starts on a free loopback port with AOF persistence and noeviction, and stops', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hf-redis-'));
    const redis = await spawnRedis(dir);
    const port = Number(new URL(redis.url).port);
    try {
      const client = new Redis(redis.url);
      await client.set('hf:probe', 'kept');
      expect(await client.get('hf:probe')).toBe('kept');
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await client.config('GET', 'dir')).toEqual(['dir', dir]);
      await client.quit();
      expect(readdirSync(dir).some((name) => name.startsWith('appendonly'))).toBe(true);
    } finally {
      await redis.stop();
    }
    expect(await redisAnswers('127.0.0.1', port)).toBe(false);
    expect(existsSync(path.join(dir, 'redis.pid'))).toBe(false);
  });

  it('says in one line how to get Redis when there is no redis-server binary', async () => {
    expect(findOnPath('redis-server', '/nonexistent-bin')).toBeUndefined();
    const attempt = spawnRedis(mkdtempSync(path.join(tmpdir(), 'hf-redis-')), '/nonexistent-bin');
    await expect(attempt).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(attempt).rejects.toThrow(NO_REDIS_MESSAGE);
    expect(NO_REDIS_MESSAGE).not.toContain('\n');
    expect(NO_REDIS_MESSAGE).toMatch(/redis-server.*docker compose up -d redis.*REDIS_URL/);
  });
});
