import { z } from 'zod';

/**
 * The one canonical dimension model every score is computed on (1-10, default 5, higher is stronger).
 * The first six carry the composite weights; Discipline, Resilience and SelfAware
 * complete the diagnostic-score mean; Vision feeds the results page's VIS and the
 * Visionary Firebrand archetype, which no other dimension can tell apart.
 */
export const Dimension = z.enum([
  'LER',
  'DCR',
  'TrustDelta',
  'OwnershipFault',
  'DetachmentLoad',
  'FrictionSensitivity',
  'Discipline',
  'Resilience',
  'SelfAware',
  'Vision',
]);
/** A canonical scoring dimension. */
export type Dimension = z.infer<typeof Dimension>;

/** Every canonical dimension, in the order reports list them. */
export const DIMENSIONS: readonly Dimension[] = Dimension.options;

/** The six dimensions the results page shows. */
export const DisplayDimension = z.enum(['LER', 'DCR', 'TBR', 'OAD', 'VIS', 'FAD']);
/** A results-page dimension. */
export type DisplayDimension = z.infer<typeof DisplayDimension>;

/**
 * How each results-page dimension is read off the canonical model: the mean of its sources.
 * This is a view, not a second scorer, so the page and the qualification can never disagree.
 */
export const DISPLAY_DIMENSIONS: Readonly<Record<DisplayDimension, { label: string; sources: readonly Dimension[] }>> = {
  LER: { label: 'Leadership Effectiveness', sources: ['LER'] },
  DCR: { label: 'Delegation Command', sources: ['DCR'] },
  TBR: { label: 'Trust Building', sources: ['TrustDelta'] },
  OAD: { label: 'Ownership Accountability Detachment', sources: ['OwnershipFault', 'DetachmentLoad'] },
  VIS: { label: 'Vision', sources: ['Vision'] },
  FAD: { label: 'Friction Adaptability', sources: ['FrictionSensitivity', 'Resilience'] },
};
