/*
 * Names the server's operations and the admin screens share: the queues, the kinds of email and
 * the lead events sent to webhooks. They live here so the browser reads them without importing the
 * server (the database's CHECK constraints list the same values).
 */

/** Every BullMQ queue the product uses. */
export const QUEUE_NAMES = ['grading', 'homework', 'mirror', 'email', 'webhooks', 'slack', 'timers', 'payments'] as const;
/** A queue name. */
export type QueueName = (typeof QUEUE_NAMES)[number];

/** What an email_outbox row is for. */
export type EmailKind =
  | 'contact_confirmation'
  | 'contact_notification'
  | 'homework'
  | 'free_resources'
  | 'sign_in_notice'
  | 'results'
  | 'deposit_receipt'
  | 'refund_confirmation'
  | 'assessment_reminder'
  | 'booking_reminder'
  | 'address_confirmation';

/** The lead events sent to the automation webhook. */
export type LeadEventName =
  'lead.captured' | 'lead.graded' | 'lead.paid' | 'lead.regraded' | 'lead.booked' | 'lead.booking_canceled' | 'lead.not_booked';

/** Where a webhooks job posts: the automation card's URL or the team-chat card's. */
export type WebhookTarget = 'automation' | 'team_chat';
