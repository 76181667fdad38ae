import { z } from 'zod';
import { scopeEchoSchema } from './scope.js';

/*
 * The overview's drop-off per screen (GET /api/admin/overview/dropoff): for the flows started in
 * the period, how many reached each screen and how many stopped there, read from flow_events.
 * A flow counts once per screen it reached, however often it came back to it.
 */

const count = z.number().int().min(0);

const dropoffStepSchema = z.object({
  /**
   * A diagnostic screen's id ('interstitial' for the Timed Questions Ahead notice), or an
   * assessment flow's state path ('survey', 'payment_success.booked').
   */
  step: z.string(),
  /** Flows that reached it at least once. */
  reached: count,
  /** Flows whose last screen it is and that have not finished: where they stopped. Zero at an end. */
  stopped: count,
  /** An end of the journey: flows that got here are done, not dropped off. */
  end: z.boolean(),
});
export type DropoffStep = z.infer<typeof dropoffStepSchema>;

const journeySchema = z.object({
  /** Flows of this machine started in the period that reached any of its steps (test flows left out unless included). */
  started: count,
  /** In the order the visitor meets them; branches one after the other. */
  steps: z.array(dropoffStepSchema),
});

export const overviewDropoffSchema = scopeEchoSchema.extend({
  /** The diagnostic flows' screens in the current bank's order. */
  diagnostic: journeySchema,
  /** The assessment flows' steps: details, survey, results and each next step. */
  assessment: journeySchema.extend({
    /** The leads those flows captured (each once): the leads of the same scope that started here. */
    captured: count,
  }),
});
export type OverviewDropoff = z.infer<typeof overviewDropoffSchema>;
