import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('fills in defaults for an empty environment', () => {
    const config = loadConfig({}, { isTTY: false });
    expect(config).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', WORKER_CONCURRENCY: 5, LOG_LEVEL: 'info' });
    // derived from the database's identity once the process has reached it (core/queues/prefix.ts)
    expect(config.QUEUE_PREFIX).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('derives the public URL from PORT and strips a trailing slash from PUBLIC_URL', () => {
    expect(loadConfig({ PORT: '8080' }, { isTTY: false }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://coach.example.com/' }, { isTTY: false }).publicUrl).toBe('https://coach.example.com');
  });

  it.each([
    ['PORT', 'abc', 'expected a port number'],
    ['PORT', '70000', 'expected a port between 0 and 65535'],
    ['DATABASE_URL', 'mysql://x@y/z', 'expected a URL like postgres://'],
    ['REDIS_URL', 'not a url', 'expected a URL like redis://'],
    ['LOG_LEVEL', 'loud', 'expected one of fatal'],
    ['WORKER_CONCURRENCY', '0', 'expected a whole number from 1 to 64'],
    ['ADMIN_EMAIL', 'nobody', 'expected an email address'],
    ['ADMIN_PASSWORD', 'short', 'at least 12 characters'],
    ['NODE_ENV', 'staging', 'expected development, production or test'],
  ])('rejects %s=%s naming the variable', (key, value, expected) => {
    let error: unknown;
    try {
      loadConfig({ [key]: value }, { isTTY: false });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problem = (error as ConfigError).problems.find((line) => line.startsWith(`${key}:`));
    expect(problem).toContain(expected);
  });

  it('reports every bad variable at once and never echoes a secret', () => {
    const error = (() => {
      try {
        loadConfig({ PORT: 'x', DATABASE_URL: 'mysql://user:hunter2@db/app' }, { isTTY: false });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    expect(error?.problems).toHaveLength(2);
    expect(error?.message).toContain('PORT: expected a port number (got "x")');
    expect(error?.message).not.toContain('hunter2');
  });
});
