import { z } from 'zod';

const responseTime = z.number().int().min(0).max(3_600_000);
const scalePoint = z.number().int().min(1).max(5);

/**
 * What the visitor's browser may send to the diagnostic; responseTime is measured by the screen, in
 * ms. A running countdown is the machine's own (its `after` delay, run by the server), so there is
 * no event for the clock running out.
 */
export const diagnosticClientEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('START_TIMED') }),
  z.object({ type: z.literal('ANSWER_LIKERT'), value: scalePoint, responseTime }),
  z.object({ type: z.literal('SELECT_OPTION'), optionId: z.string().min(1).max(60), responseTime }),
  z.object({ type: z.literal('SELECT_CONFIDENCE'), value: scalePoint }),
  z.object({ type: z.literal('REORDER_RANKING'), order: z.array(z.string().min(1).max(60)).max(20) }),
  z.object({ type: z.literal('CONFIRM_RANKING'), responseTime }),
]);
/** An event the visitor's browser may send to the diagnostic. */
export type DiagnosticClientEvent = z.infer<typeof diagnosticClientEventSchema>;

/** A standalone diagnostic's graded result: the diagnostic part of grading's result. */
const diagnosticResultSchema = z.object({
  archetype: z.string().min(1),
  narrative: z.string(),
  scores: z.record(z.string(), z.number()),
});
/** A standalone diagnostic's graded result. */
export type DiagnosticResult = z.infer<typeof diagnosticResultSchema>;

/** What the standalone diagnostic's grading job reports back: sent by a worker, never accepted from a browser. */
const diagnosticSystemEventSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('GRADED'), result: diagnosticResultSchema })]);

/** Every event the diagnostic machine accepts. */
export const diagnosticEventSchema = z.discriminatedUnion('type', [
  ...diagnosticClientEventSchema.options,
  ...diagnosticSystemEventSchema.options,
]);

/**
 * An event of the diagnostic machine. `at` is when the server applied it, in ms by the server's
 * clock: the server stamps every event of a diagnostic flow (overwriting anything a browser sent),
 * and the machine times its screens by it. The browser's optimistic copy has no `at`.
 */
export type DiagnosticEvent = z.infer<typeof diagnosticEventSchema> & { at?: number };
