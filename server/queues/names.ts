/** Every BullMQ queue the product uses; the jobs table's CHECK constraint lists the same names. */
export const QUEUE_NAMES = ['grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers', 'payments'] as const;

/** A queue name. */
export type QueueName = (typeof QUEUE_NAMES)[number];
