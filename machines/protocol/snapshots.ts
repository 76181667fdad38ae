import { z } from 'zod';
import {
  completedPathSchema,
  flowResultSchema,
  homeworkSourceSchema,
  type CompletedPath,
  type FlowResult,
  type HomeworkSource,
} from './assessment-flow.js';
import {
  diagnosticAnswersSchema,
  leadSessionSchema,
  mirrorTurnSchema,
  type DiagnosticAnswers,
  type LeadSession,
  type MirrorTurn,
  type Notice,
} from './common.js';
import { checkoutUrlSchema, paymentPurposeSchema, type PaymentPurpose } from './payment.js';

/**
 * Typed reads of a stored flow snapshot (the JSON XState's getPersistedSnapshot writes), for code
 * that holds a snapshot without its machine: the server's adapters, payments and workers. Each
 * accessor checks what it reads, so a snapshot of another machine or an older shape gives the
 * empty value instead of a wrong one. Nothing outside machines/ reads snapshot JSON by path.
 */

const contextOf = (snapshot: unknown): Record<string, unknown> => {
  const context = (snapshot as { context?: unknown } | null)?.context;
  return typeof context === 'object' && context !== null ? (context as Record<string, unknown>) : {};
};

/** The lead session an assessment flow holds (who the visitor said they are, and their lead). */
export function assessmentSessionOf(snapshot: unknown): LeadSession | null {
  const parsed = leadSessionSchema.safeParse(contextOf(snapshot).session);
  return parsed.success ? parsed.data : null;
}

/** The result an assessment flow holds (graded, or shown again from a stored one), or null. */
export function assessmentResultOf(snapshot: unknown): FlowResult | null {
  const parsed = flowResultSchema.safeParse(contextOf(snapshot).result);
  return parsed.success && parsed.data ? parsed.data : null;
}

/** Where an assessment flow's path ended after its results, or null (also for a snapshot from before paths were kept). */
export function completedPathOf(snapshot: unknown): CompletedPath | null {
  const parsed = completedPathSchema.safeParse(contextOf(snapshot).completedPath);
  return parsed.success ? parsed.data : null;
}

/** Whether an assessment flow is a test (testing mode, decided until its lead was captured). */
export function testingModeOf(snapshot: unknown): boolean {
  return contextOf(snapshot).testingMode === true;
}

const noticeSchema = z.object({ title: z.string().nullable(), description: z.string().nullable() });

/** The message an assessment flow's current screen shows, or null. */
export function noticeOf(snapshot: unknown): Notice | null {
  const parsed = noticeSchema.safeParse(contextOf(snapshot).notice);
  return parsed.success ? parsed.data : null;
}

/** What an assessment flow's payment is for, once a payment was chosen. */
export function paymentPurposeOf(snapshot: unknown): PaymentPurpose | null {
  const parsed = paymentPurposeSchema.safeParse(contextOf(snapshot).paymentPurpose);
  return parsed.success ? parsed.data : null;
}

/** The hosted checkout the server opened for an assessment flow's current payment attempt, or null. */
export function checkoutUrlOf(snapshot: unknown): string | null {
  const parsed = checkoutUrlSchema.safeParse(contextOf(snapshot).checkoutUrl);
  return parsed.success ? parsed.data : null;
}

/** How an assessment flow's homework goes out, once chosen. */
export function homeworkSourceOf(snapshot: unknown): HomeworkSource | null {
  const parsed = homeworkSourceSchema.safeParse(contextOf(snapshot).homeworkSource);
  return parsed.success ? parsed.data : null;
}

/** The answers a diagnostic flow recorded. */
export function diagnosticAnswersOf(snapshot: unknown): DiagnosticAnswers {
  const parsed = diagnosticAnswersSchema.safeParse(contextOf(snapshot).answers);
  return parsed.success ? parsed.data : {};
}

const diagnosticPositionSchema = z.object({ index: z.number().int().min(0), screens: z.array(z.looseObject({ id: z.string() })) });

/** The id of the item a diagnostic flow has on show (the next to answer), or null once every item is answered. */
export function diagnosticItemOnShow(snapshot: unknown): string | null {
  const parsed = diagnosticPositionSchema.safeParse(contextOf(snapshot));
  return parsed.success ? (parsed.data.screens[parsed.data.index]?.id ?? null) : null;
}

const mirrorConversationSchema = z.object({ sessionId: z.uuid(), turn: z.number().int().min(0), messages: z.array(mirrorTurnSchema) });

/** A Mirror flow's conversation (its session id, exchanges done and messages), or null before the first send. */
export function mirrorConversationOf(snapshot: unknown): { sessionId: string; turn: number; messages: MirrorTurn[] } | null {
  const parsed = mirrorConversationSchema.safeParse(contextOf(snapshot));
  return parsed.success ? { sessionId: parsed.data.sessionId, turn: parsed.data.turn, messages: parsed.data.messages } : null;
}
