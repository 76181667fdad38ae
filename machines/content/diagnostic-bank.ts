import { z } from 'zod';
import { Dimension } from './dimensions.js';
import { id, text, version } from './schema-fields.js';

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
  version,
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
