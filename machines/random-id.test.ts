import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUuid } from './random-id.js';

describe('randomUuid', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes version-4 UUIDs, all different', () => {
    const ids = Array.from({ length: 2000 }, randomUuid);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('needs only getRandomValues, as a browser on plain http offers it (no randomUUID)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array<ArrayBuffer>) => real.getRandomValues(array) });
    expect('randomUUID' in globalThis.crypto).toBe(false);
    expect(randomUuid()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
