import { z } from 'zod';

const responseTime = z.number().int().min(0).max(3_600_000);
const scalePoint = z.number().int().min(1).max(5);

/** Every event the diagnostic machine accepts; responseTime is measured by the screen, in ms. */
export const diagnosticEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('START_TIMED') }),
  z.object({ type: z.literal('ANSWER_LIKERT'), value: scalePoint, responseTime }),
  z.object({ type: z.literal('SELECT_OPTION'), optionId: z.string().min(1).max(60), responseTime }),
  z.object({ type: z.literal('SELECT_CONFIDENCE'), value: scalePoint }),
  z.object({ type: z.literal('REORDER_RANKING'), order: z.array(z.string().min(1).max(60)).max(20) }),
  z.object({ type: z.literal('CONFIRM_RANKING'), responseTime }),
  z.object({ type: z.literal('TIME_UP') }),
]);
/** An event of the diagnostic machine. */
export type DiagnosticEvent = z.infer<typeof diagnosticEventSchema>;
