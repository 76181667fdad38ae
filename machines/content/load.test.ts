import { describe, expect, it } from 'vitest';
import { builtinBank } from './banks/builtin.js';
import { bankV1 } from './banks/v1.js';
import { bankV2 } from './banks/v2.js';
import { loadDiagnosticBanks } from './load.js';

function recorder() {
  const messages: string[] = [];
  return { messages, logger: { warn: (m: string) => messages.push(m) } };
}

const broken = { ...bankV2, baseline: { ...bankV2.baseline, items: [] } };

describe('loadDiagnosticBanks', () => {
  it('prefers v2 and logs nothing when every bank is valid', () => {
    const { messages, logger } = recorder();
    const loaded = loadDiagnosticBanks(
      [
        { name: 'v2', data: bankV2 },
        { name: 'v1', data: bankV1 },
        { name: 'built-in', data: builtinBank },
      ],
      logger,
    );
    expect(loaded.preferred.version).toBe('2.0.0');
    expect([...loaded.byVersion.keys()]).toEqual(['2.0.0', '1.0.0', '0.0.0']);
    expect(messages).toEqual([]);
  });

  it('falls back to v1 when v2 fails validation, and says so', () => {
    const { messages, logger } = recorder();
    const loaded = loadDiagnosticBanks(
      [
        { name: 'v2', data: broken },
        { name: 'v1', data: bankV1 },
        { name: 'built-in', data: builtinBank },
      ],
      logger,
    );
    expect(loaded.preferred.version).toBe('1.0.0');
    expect(loaded.byVersion.has('2.0.0')).toBe(false);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^Diagnostic bank v2 failed validation: .*baseline\.items/s);
    expect(messages[1]).toBe('Falling back to diagnostic bank v1 (version 1.0.0)');
  });

  it('falls back to the built-in four items when v2 and v1 both fail', () => {
    const { messages, logger } = recorder();
    const loaded = loadDiagnosticBanks(
      [
        { name: 'v2', data: broken },
        { name: 'v1', data: { version: 'one' } },
        { name: 'built-in', data: builtinBank },
      ],
      logger,
    );
    expect(loaded.preferred.version).toBe('0.0.0');
    expect(loaded.preferred.baseline.items.map((i) => i.dimension)).toEqual(['LER', 'DCR', 'OwnershipFault', 'TrustDelta']);
    expect(messages.at(-1)).toBe('Falling back to diagnostic bank built-in (version 0.0.0)');
  });

  it('throws when no bank is valid', () => {
    const { logger } = recorder();
    expect(() => loadDiagnosticBanks([{ name: 'v2', data: null }], logger)).toThrow('No valid diagnostic bank among v2');
  });
});
