import type { z } from 'zod';
import { GradingRules } from '#machines/grading/rules.js';

/*
 * The rules form's values: every number as typed (the part weights as percentages), every switch
 * as a boolean. What is sent is built from them and checked with the same GradingRules schema the
 * server uses; its messages are shown next to the inputs they name.
 */

type Group = 'partWeights' | 'thresholds' | 'modifiers' | 'contradictionPenalties';
type Switch = keyof GradingRules['tierConditions'];

interface NumberField {
  /** The rule's path in GradingRules, e.g. 'thresholds.bookCall' (also the key of its errors). */
  key: string;
  group: Group;
  name: string;
  label: string;
  /** The rule in plain words, for the rules in force. */
  says: (value: number) => string;
}

const weightSays = (part: string) => (value: number) => `${part} weighs ${value}% of the total`;
const penaltySays = (pair: string) => (value: number) => `Holding both ${pair}: ${value} points off the diagnostic and composite scores`;

export const NUMBER_FIELDS: NumberField[] = [
  { key: 'partWeights.diagnostic', group: 'partWeights', name: 'diagnostic', label: 'Diagnostic', says: weightSays('The diagnostic') },
  { key: 'partWeights.survey', group: 'partWeights', name: 'survey', label: 'Survey', says: weightSays('The survey') },
  { key: 'partWeights.mirror', group: 'partWeights', name: 'mirror', label: 'Mirror', says: weightSays('The Mirror') },
  {
    key: 'thresholds.bookCall',
    group: 'thresholds',
    name: 'bookCall',
    label: 'Book call from a total of',
    says: (value) => `Book call from a total of ${value}`,
  },
  {
    key: 'thresholds.homework',
    group: 'thresholds',
    name: 'homework',
    label: 'Homework from a total of',
    says: (value) => `Homework from a total of ${value}; below that, Nurture`,
  },
  {
    key: 'modifiers.validationPenalty',
    group: 'modifiers',
    name: 'validationPenalty',
    label: 'Points off for seeking validation rather than challenge (q4)',
    says: (value) => `${value} points off when the lead seeks validation rather than challenge (q4)`,
  },
  {
    key: 'modifiers.urgencyBonus',
    group: 'modifiers',
    name: 'urgencyBonus',
    label: 'Points added for critical urgency (q3) with the investment ready (q1)',
    says: (value) => `${value} points added for critical urgency (q3) with the investment ready (q1)`,
  },
  {
    key: 'modifiers.delayCap',
    group: 'modifiers',
    name: 'delayCap',
    label: 'Highest total when they need time to invest (q1) and cannot start within 3 months (q2)',
    says: (value) => `The total is capped at ${value} when the lead needs time to invest (q1) and cannot start within 3 months (q2)`,
  },
  {
    key: 'contradictionPenalties.delegation_vs_control',
    group: 'contradictionPenalties',
    name: 'delegation_vs_control',
    label: 'Delegation versus control',
    says: penaltySays('delegation and control'),
  },
  {
    key: 'contradictionPenalties.ownership_vs_blame',
    group: 'contradictionPenalties',
    name: 'ownership_vs_blame',
    label: 'Ownership versus blame',
    says: penaltySays('ownership and blame'),
  },
  {
    key: 'contradictionPenalties.trust_vs_review',
    group: 'contradictionPenalties',
    name: 'trust_vs_review',
    label: 'Trust versus review',
    says: penaltySays('trust and review'),
  },
];

export const GROUPS: Array<{ key: Group; title: string; description: string; unit: string }> = [
  {
    key: 'partWeights',
    title: 'How the three parts weigh',
    description: 'Shares of the total, in percent; they add up to 100.',
    unit: '%',
  },
  { key: 'thresholds', title: 'Where the tiers start', description: 'Totals out of 100.', unit: 'points' },
  { key: 'modifiers', title: 'Survey modifiers', description: 'Points on the weighted total, 0 to 100.', unit: 'points' },
  {
    key: 'contradictionPenalties',
    title: 'Contradiction penalties',
    description: 'Points off when a lead holds both sides of a contradiction.',
    unit: 'points',
  },
];

export const SWITCHES: Array<{ key: Switch; on: string; off: string }> = [
  {
    key: 'bookCallNeedsReadyToInvest',
    on: 'Book call needs the investment ready (q1)',
    off: 'Book call does not need the investment ready (q1)',
  },
  {
    key: 'bookCallNeedsReadyToStart',
    on: 'Book call needs them able to start within 30 days (q2)',
    off: 'Book call does not need them able to start within 30 days (q2)',
  },
  {
    key: 'disqualifiersForceNurture',
    on: 'A disqualifying answer means Nurture whatever the total',
    off: 'A disqualifying answer does not force Nurture',
  },
];

export interface Draft {
  numbers: Record<string, string>;
  switches: Record<Switch, boolean>;
}

/** A rule's number by its path. */
export function valueAt(rules: GradingRules, key: string): number {
  const [group, name] = key.split('.') as [Group, string];
  return (rules[group] as Record<string, number>)[name]!;
}

const isWeight = (key: string) => key.startsWith('partWeights.');
/** 12 significant digits: 0.07 × 100 reads 7, a third keeps enough digits to add up to 1. */
const tidy = (value: number) => Number(value.toPrecision(12));

export function draftOf(rules: GradingRules): Draft {
  return {
    numbers: Object.fromEntries(
      NUMBER_FIELDS.map(({ key }) => {
        const value = valueAt(rules, key);
        return [key, String(isWeight(key) ? tidy(value * 100) : value)];
      }),
    ),
    switches: { ...rules.tierConditions },
  };
}

/** What the form would send, unchecked: a blank or unreadable number stays NaN for the schema to name. */
function candidateOf(draft: Draft) {
  const candidate: Record<string, Record<string, unknown>> = { tierConditions: { ...draft.switches } };
  for (const { key, group, name } of NUMBER_FIELDS) {
    const typed = draft.numbers[key]!.trim();
    const value = typed === '' ? Number.NaN : Number(typed);
    candidate[group] ??= {};
    candidate[group][name] = isWeight(key) && Number.isFinite(value) ? tidy(value / 100) : value;
  }
  return candidate;
}

/**
 * The schema's issues by path ('thresholds.bookCall', or 'partWeights' for the sum); with
 * `inPercent` (the form's weights), the weights' ranges are said in percent.
 */
export function issuesByField(issues: z.core.$ZodIssue[], inPercent: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.join('.');
    errors[key] ??= inPercent && isWeight(key) ? issue.message.replace('between 0 and 1', 'between 0 and 100 percent') : issue.message;
  }
  return errors;
}

export type Checked = { ok: true; rules: GradingRules } | { ok: false; errors: Record<string, string> };

export function checkDraft(draft: Draft): Checked {
  const parsed = GradingRules.safeParse(candidateOf(draft));
  return parsed.success ? { ok: true, rules: parsed.data } : { ok: false, errors: issuesByField(parsed.error.issues, true) };
}

/** A rule set's identity whatever its keys' order: two sets with the same numbers give the same key. */
export function rulesKey(rules: GradingRules): string {
  return JSON.stringify(rules, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
