import type { AnyMachineSnapshot } from 'xstate';
import { statePath } from '#machines/protocol/can-accept.js';

/**
 * The modal's title per step. Where the machine names a title in its
 * meta (capture, intro, diagnostic, survey, results, mirror) that title is used; the table
 * describes the others only in parentheses, so they get titles written here.
 */
export const STEP_TITLES: Readonly<Record<string, string>> = {
  opening: 'Welcome',
  capture: 'Welcome',
  intro: 'Assessment Overview',
  diagnostic: 'Leadership Diagnostic',
  survey: 'Qualification Survey',
  processing: 'Analyzing Your Responses',
  gaming_detected: "Let's Take That Again",
  results: 'Your Results',
  yes_flow: 'Book Your Strategy Session',
  payment: 'Your Refundable Deposit',
  payment_success: 'Deposit Confirmed',
  maybe_flow: 'Choose Your Next Step',
  no_flow: 'Join the Community',
  email_capture: 'Save Your Details',
  mirror: 'Decision Mirror',
  homework_processing: 'Sending Your Resources',
  // once they have left, the title says so instead of still 'Sending'
  'homework_processing.sent': 'Your Resources Are on Their Way',
  completed_results: 'Welcome Back',
};

/** The top-level step of an assessment-flow state value ('processing' for { processing: 'grading' }). */
export function topStep(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') return Object.keys(value)[0] ?? '';
  return '';
}

/** The title for a snapshot: the machine's meta title if the state has one, else the table above (the full state first). */
export function stepTitle(snapshot: Pick<AnyMachineSnapshot, 'value' | 'getMeta'>): string {
  for (const meta of Object.values(snapshot.getMeta() as Record<string, { title?: unknown } | undefined>)) {
    if (typeof meta?.title === 'string') return meta.title;
  }
  return STEP_TITLES[statePath(snapshot.value)] ?? STEP_TITLES[topStep(snapshot.value)] ?? 'Leadership Assessment';
}
