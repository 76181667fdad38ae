import type pg from 'pg';
import type { Config } from '#core/config/index.js';
import { inTransaction } from '#core/db/transaction.js';
import { coachAddress } from '#core/email/coach.js';
import { queueEmail } from '#core/email/outbox.js';
import { contactConfirmation, contactNotification } from '#core/email/templates.js';
import { readSiteSettings } from '#core/site/settings.js';
import { storeContactSubmission } from './submissions.js';

/** A contact message as the form sends it (company null when left empty). */
export interface ContactMessageIn {
  name: string;
  email: string;
  company: string | null;
  message: string;
}

/**
 * Takes a contact message, from the API (send-contact-email) or the form posted without
 * JavaScript: stored with its confirmation to the sender and its notification to the coach queued
 * in the same transaction, so a stored message always has its emails. Returns the message's id.
 */
export function acceptContactMessage(pool: pg.Pool, config: Config, message: ContactMessageIn): Promise<string> {
  return inTransaction(pool, async (client) => {
    const { id, receivedAt } = await storeContactSubmission(client, message);
    const contact = { id, ...message, receivedAt };
    const coach = await coachAddress(client, config);
    const site = await readSiteSettings(client);
    await queueEmail(client, {
      kind: 'contact_confirmation',
      to: message.email,
      replyTo: coach,
      contactId: id,
      ...contactConfirmation(contact, config.publicUrl, site),
    });
    await queueEmail(client, {
      kind: 'contact_notification',
      to: coach,
      replyTo: message.email,
      contactId: id,
      ...contactNotification(contact),
    });
    return id;
  });
}
