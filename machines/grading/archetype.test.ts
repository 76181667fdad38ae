import { describe, expect, it } from 'vitest';
import { ArchetypeName } from '../content/archetype-schema.js';
import { DIMENSIONS, type Dimension } from '../content/dimensions.js';
import { ARCHETYPE_RULES, fallbackArchetype, selectArchetype } from './archetype.js';

const profile = (overrides: Partial<Record<Dimension, number>> = {}) =>
  ({ ...Object.fromEntries(DIMENSIONS.map((d) => [d, 6])), ...overrides }) as Record<Dimension, number>;

describe('selectArchetype', () => {
  it('has a rule for each of the eight archetypes', () => {
    expect(ARCHETYPE_RULES.map((r) => r.name).sort()).toEqual([...ArchetypeName.options].sort());
  });

  it.each<[string, Partial<Record<Dimension, number>>]>([
    ['Shadow Manipulator', { LER: 8, OwnershipFault: 3, TrustDelta: 4 }],
    ['Fractured Identity Operator', { SelfAware: 3, DetachmentLoad: 4 }],
    ['High-Functioning Isolationist', { LER: 9, DCR: 3 }],
    ['Visionary Firebrand', { Vision: 8, Discipline: 5 }],
    ['Trust-Builder Architect', { TrustDelta: 8, DCR: 7 }],
    ['Command-First Driver', { LER: 8, TrustDelta: 5 }],
    ['Disciplined Craftsman', { Discipline: 8, Vision: 4 }],
    ['Reluctant Steward', { OwnershipFault: 8, LER: 5 }],
  ])('names %s for its profile', (name, overrides) => {
    expect(selectArchetype(profile(overrides)).name).toBe(name);
  });

  it('lets the earlier rule win when two match', () => {
    // LER 8 with OwnershipFault 3, TrustDelta 3 and DCR 3 matches Shadow Manipulator,
    // High-Functioning Isolationist and Command-First Driver; Shadow Manipulator comes first.
    expect(selectArchetype(profile({ LER: 8, OwnershipFault: 3, TrustDelta: 3, DCR: 3 })).name).toBe('Shadow Manipulator');
  });

  it('falls back when no profile matches', () => {
    expect(selectArchetype(profile())).toEqual(fallbackArchetype(profile()));
  });
});

describe('fallbackArchetype', () => {
  it('is Command-First Driver when LER >= TrustDelta, including a tie', () => {
    expect(fallbackArchetype(profile({ LER: 6, TrustDelta: 6 }))).toEqual({
      name: 'Command-First Driver',
      because: 'no profile matched clearly, and LER 6 is at least TrustDelta 6',
    });
  });

  it('is Trust-Builder Architect when TrustDelta is higher', () => {
    expect(fallbackArchetype(profile({ LER: 5.5, TrustDelta: 6 })).name).toBe('Trust-Builder Architect');
  });
});
