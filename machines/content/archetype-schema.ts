import { z } from 'zod';
import { text } from './schema-fields.js';

/** The eight archetype names. */
export const ArchetypeName = z.enum([
  'High-Functioning Isolationist',
  'Command-First Driver',
  'Trust-Builder Architect',
  'Visionary Firebrand',
  'Fractured Identity Operator',
  'Reluctant Steward',
  'Disciplined Craftsman',
  'Shadow Manipulator',
]);
/** One of the eight archetype names. */
export type ArchetypeName = z.infer<typeof ArchetypeName>;

/** An archetype's copy: who it describes and three things to do next. */
export const Archetype = z.object({
  name: ArchetypeName,
  tagline: text,
  narrative: text,
  strengths: z.array(text).min(1),
  risks: z.array(text).min(1),
  actions: z.array(text).length(3),
});
/** An archetype's copy. */
export type Archetype = z.infer<typeof Archetype>;

/** All eight archetypes, each exactly once. */
export const Archetypes = z
  .array(Archetype)
  .length(ArchetypeName.options.length)
  .refine((list) => new Set(list.map((a) => a.name)).size === list.length, 'each archetype exactly once');
