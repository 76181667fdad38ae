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

const id = z.string().regex(/^[a-z][a-z0-9_]*$/, 'ids are lower_snake_case');
const text = z.string().trim().min(1);

/**
 * Signed evidence an answer gives each dimension: +1 is the strongest possible sign of the
 * dimension, -1 the strongest sign against it; dimensions not named get no evidence.
 */
export const Weights = z.partialRecord(Dimension, z.number().min(-1).max(1));
/** Per-dimension evidence of one option or ranking item. */
export type Weights = z.infer<typeof Weights>;

/** One 1-5 agreement statement; reverse items score 6 - value. */
const LikertItem = z.object({
  id,
  prompt: text,
  reverse: z.boolean(),
  dimension: Dimension,
});
/** One 1-5 agreement statement. */
type LikertItem = z.infer<typeof LikertItem>;

/** A titled group of likert items shown one per screen. */
const LikertBlock = z.object({
  id,
  label: text,
  instructions: text,
  items: z.array(LikertItem).min(1),
});
/** A titled group of likert items. */
type LikertBlock = z.infer<typeof LikertBlock>;

/** The 1-5 confidence question asked after a vignette choice. */
const Followup = z.object({
  prompt: text,
  scale: z.array(text).length(5),
});
/** The confidence follow-up of a vignette. */
type Followup = z.infer<typeof Followup>;

/** One choice in a vignette. */
const VignetteOption = z.object({ id, label: text, weights: Weights });
/** One choice in a vignette. */
type VignetteOption = z.infer<typeof VignetteOption>;

/** A timed scenario; on timeout the first option is chosen, so it must never be a trap option. */
export const Vignette = z.object({
  id,
  prompt: text,
  options: z.array(VignetteOption).min(2),
  timeLimitSec: z.number().int().positive(),
  followup: Followup.optional(),
});
/** A timed scenario. */
export type Vignette = z.infer<typeof Vignette>;

/** One thing to rank; its weights count positively when ranked first and negatively when last. */
const RankingItem = z.object({ id, label: text, weights: Weights });
/** One thing to rank. */
type RankingItem = z.infer<typeof RankingItem>;

/** A priority ranking shown on one screen in the given default order. */
export const Ranking = z.object({
  id,
  prompt: text,
  items: z.array(RankingItem).min(2),
});
/** A priority ranking. */
export type Ranking = z.infer<typeof Ranking>;

/** A titled group of vignettes; its screens form the timed block. */
const VignetteBlock = z.object({
  id,
  label: text,
  instructions: text,
  items: z.array(Vignette).min(1),
});
/** A titled group of vignettes. */
type VignetteBlock = z.infer<typeof VignetteBlock>;

const BankShape = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  title: text,
  estimatedMinutes: text,
  baseline: LikertBlock,
  advanced_traits: LikertBlock.optional(),
  priority_ranking: Ranking.optional(),
  vignettes: VignetteBlock.optional(),
});

/**
 * A versioned diagnostic. Blocks are shown in the order baseline, advanced_traits,
 * priority_ranking, vignettes; only baseline is required so that v1 and the built-in bank fit.
 */
export const DiagnosticBank = BankShape.superRefine((bank, ctx) => {
  // Answers are keyed by screen id and vignette answers by option id, so a repeated id would
  // silently merge two answers.
  const seen = new Set<string>();
  for (const screen of flattenBank(bank)) {
    for (const key of [screen.id, ...(screen.type === 'likert' ? [] : screen.choiceIds)]) {
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `duplicate id ${key}` });
      seen.add(key);
    }
  }
});
/** A versioned diagnostic question bank. */
export type DiagnosticBank = z.infer<typeof DiagnosticBank>;

/** One screen of the diagnostic as the visitor sees it, numbered from 1. */
export type Screen =
  | { type: 'likert'; id: string; index: number; number: number; blockId: string; item: LikertItem }
  | {
      type: 'ranking';
      id: string;
      index: number;
      number: number;
      blockId: string;
      /** Ranking item ids in the default order. */
      choiceIds: string[];
      ranking: Ranking;
    }
  | {
      type: 'vignette';
      id: string;
      index: number;
      number: number;
      blockId: string;
      timeLimitSec: number;
      /** Option ids; the first is the timeout answer. */
      choiceIds: string[];
      hasFollowup: boolean;
      vignette: Vignette;
    };

/** The bank's screens in the order shown; its length is the progress bar's total. */
export function flattenBank(bank: z.infer<typeof BankShape>): Screen[] {
  const screens: Screen[] = [];
  const at = () => ({ index: screens.length, number: screens.length + 1 });
  for (const block of [bank.baseline, bank.advanced_traits]) {
    if (!block) continue;
    for (const item of block.items) {
      screens.push({ type: 'likert', id: item.id, ...at(), blockId: block.id, item });
    }
  }
  if (bank.priority_ranking) {
    const ranking = bank.priority_ranking;
    screens.push({
      type: 'ranking',
      id: ranking.id,
      ...at(),
      blockId: ranking.id,
      choiceIds: ranking.items.map((i) => i.id),
      ranking,
    });
  }
  const vignettes = bank.vignettes;
  if (vignettes) {
    for (const vignette of vignettes.items) {
      screens.push({
        type: 'vignette',
        id: vignette.id,
        ...at(),
        blockId: vignettes.id,
        timeLimitSec: vignette.timeLimitSec,
        choiceIds: vignette.options.map((o) => o.id),
        hasFollowup: vignette.followup !== undefined,
        vignette,
      });
    }
  }
  return screens;
}

/** What the 'Timed Questions Ahead' interstitial must say, computed from the real screens. */
export interface TimedSummary {
  /** 1-based screen numbers of the timed questions, ascending. */
  numbers: number[];
  /** 0-based index of the first timed screen: the interstitial appears before it. */
  firstIndex: number;
  /** Sum of the timed questions' limits. */
  totalSeconds: number;
  /** e.g. 'Questions 19 to 22 are timed: 180 seconds in total (50, 45, 40 and 45 seconds).' */
  sentence: string;
}

/** The timed screens of a flattened bank, or null when it has none (v1 and built-in banks). */
export function timedSummary(screens: readonly Screen[]): TimedSummary | null {
  const timed = screens.filter((s): s is Extract<Screen, { type: 'vignette' }> => s.type === 'vignette');
  const first = timed[0];
  const last = timed[timed.length - 1];
  if (!first || !last) return null;
  const limits = timed.map((s) => s.timeLimitSec);
  const totalSeconds = limits.reduce((a, b) => a + b, 0);
  const range = first === last ? `Question ${first.number} is` : `Questions ${first.number} to ${last.number} are`;
  const each = limits.length === 1 ? '' : ` (${limits.slice(0, -1).join(', ')} and ${limits[limits.length - 1]} seconds)`;
  return {
    numbers: timed.map((s) => s.number),
    firstIndex: first.index,
    totalSeconds,
    sentence: `${range} timed: ${totalSeconds} seconds in total${each}.`,
  };
}

/**
 * What an option means to the qualification rules, which read these flags rather
 * than option ids: 'disqualify' forces nurture; 'delay' on both q1 and q2 caps the total at 49;
 * 'validation' costs 15; 'critical' adds 10 when q1 is 'ready'; 'ready' on both q1 and q2 is
 * required for book_call.
 */
export const SurveyFlag = z.enum(['disqualify', 'delay', 'validation', 'critical', 'ready']);
/** What a survey option does to qualification. */
export type SurveyFlag = z.infer<typeof SurveyFlag>;

/** One answer to a scored survey question: it earns score × weight points. */
export const SurveyOption = z.object({
  id,
  label: text,
  score: z.number().min(0),
  weight: z.number().positive(),
  flag: SurveyFlag.optional(),
});
/** One answer to a scored survey question. */
export type SurveyOption = z.infer<typeof SurveyOption>;

/** A multiple-choice survey question whose answer counts towards the survey score. */
export const ScoredQuestion = z.object({
  kind: z.literal('choice'),
  id,
  prompt: text,
  required: z.boolean(),
  options: z.array(SurveyOption).min(2),
});
/** A scored multiple-choice survey question. */
export type ScoredQuestion = z.infer<typeof ScoredQuestion>;

/** A free-text survey question; it never changes the score. */
const TextQuestion = z.object({
  kind: z.literal('text'),
  id,
  prompt: text,
  required: z.boolean(),
  placeholder: text.optional(),
});
/** A free-text survey question. */
type TextQuestion = z.infer<typeof TextQuestion>;

/** The qualification survey shown after the diagnostic. */
export const QualificationSurvey = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  questions: z.array(z.discriminatedUnion('kind', [ScoredQuestion, TextQuestion])).min(1),
});
/** The qualification survey. */
export type QualificationSurvey = z.infer<typeof QualificationSurvey>;

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
