import type { ArchetypeName } from '../content/archetype-schema.js';
import type { Dimension } from '../content/dimensions.js';

/** A dimension at or above this is a clear strength. */
const HIGH = 7;
/** A dimension at or below this is a clear gap. */
const LOW = 4;

type Profile = Record<Dimension, number>;

/** A profile that identifies an archetype, with its reason in plain words. */
export interface ArchetypeRule {
  name: ArchetypeName;
  matches: (d: Profile) => boolean;
  because: string;
}

/**
 * The archetype profiles, most specific and most consequential first: the first that matches
 * wins, so a leader with results but no ownership or trust is named a Shadow Manipulator before
 * the gentler readings of high LER get a chance.
 */
export const ARCHETYPE_RULES: readonly ArchetypeRule[] = [
  {
    name: 'Shadow Manipulator',
    matches: (d) => d.LER >= HIGH && d.OwnershipFault <= LOW && d.TrustDelta <= LOW,
    because: `LER at least ${HIGH} with OwnershipFault and TrustDelta at most ${LOW}`,
  },
  {
    name: 'Fractured Identity Operator',
    matches: (d) => d.SelfAware <= LOW && d.DetachmentLoad <= LOW,
    because: `SelfAware and DetachmentLoad both at most ${LOW}`,
  },
  {
    name: 'High-Functioning Isolationist',
    matches: (d) => d.LER >= HIGH && d.DCR <= LOW,
    because: `LER at least ${HIGH} with DCR at most ${LOW}`,
  },
  {
    name: 'Visionary Firebrand',
    matches: (d) => d.Vision >= HIGH && d.Discipline <= 5,
    because: `Vision at least ${HIGH} with Discipline at most 5`,
  },
  {
    name: 'Trust-Builder Architect',
    matches: (d) => d.TrustDelta >= HIGH && d.DCR >= HIGH,
    because: `TrustDelta and DCR both at least ${HIGH}`,
  },
  {
    name: 'Command-First Driver',
    matches: (d) => d.LER >= HIGH && d.TrustDelta <= 5,
    because: `LER at least ${HIGH} with TrustDelta at most 5`,
  },
  {
    name: 'Disciplined Craftsman',
    matches: (d) => d.Discipline >= HIGH && d.Vision <= 5,
    because: `Discipline at least ${HIGH} with Vision at most 5`,
  },
  {
    name: 'Reluctant Steward',
    matches: (d) => d.OwnershipFault >= HIGH && d.LER <= 5,
    because: `OwnershipFault at least ${HIGH} with LER at most 5`,
  },
];

/** The chosen archetype and why. */
export interface ArchetypeChoice {
  name: ArchetypeName;
  because: string;
}

/** The fallback rule of Command-First Driver if LER >= TrustDelta, else Trust-Builder Architect. */
export function fallbackArchetype(d: Profile): ArchetypeChoice {
  return d.LER >= d.TrustDelta
    ? { name: 'Command-First Driver', because: `no profile matched clearly, and LER ${d.LER} is at least TrustDelta ${d.TrustDelta}` }
    : { name: 'Trust-Builder Architect', because: `no profile matched clearly, and TrustDelta ${d.TrustDelta} exceeds LER ${d.LER}` };
}

/** The first archetype whose profile matches, else the fallback rule. */
export function selectArchetype(d: Profile): ArchetypeChoice {
  const rule = ARCHETYPE_RULES.find((r) => r.matches(d));
  return rule ? { name: rule.name, because: rule.because } : fallbackArchetype(d);
}
