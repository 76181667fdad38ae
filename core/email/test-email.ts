import type pg from 'pg';
import type { EmailCatalog, TestEmailResult } from '#machines/protocol/admin/emails.js';
import type { Config } from '../config/index.js';
import { inTransaction } from '../db/transaction.js';
import { reminderSettingsView } from '../site/reminder-settings.js';
import { readSiteSettings } from '../site/settings.js';
import { emailPreview, emailPreviews, type CatalogContext } from './catalog.js';
import { deliverEmail, queueEmail } from './outbox.js';
import { smtpSender } from './transport.js';

/** Marks a test in the inbox, so it is never taken for a lead's real email. */
const TEST_SUBJECT_PREFIX = '[Test] ';

type CatalogConfig = Pick<Config, 'publicUrl' | 'BOOKING_REMINDER_HOURS' | 'ASSESSMENT_REMINDER_HOURS'>;

async function catalogContext(db: pg.Pool, config: CatalogConfig): Promise<CatalogContext> {
  const [site, reminders] = await Promise.all([readSiteSettings(db), reminderSettingsView(db, config)]);
  return { siteUrl: config.publicUrl, site, reminders: reminders.settings };
}

/** The Emails screen: every email previewed with the settings now, and where a test goes. */
export async function emailCatalog(db: pg.Pool, config: CatalogConfig, adminEmail: string): Promise<EmailCatalog> {
  return { previews: emailPreviews(await catalogContext(db, config)), testRecipient: adminEmail };
}

/**
 * "Send me a test": the preview `id`, as drawn now, to the signed-in admin's own address and never
 * to a lead. It goes the way every email goes: an outbox row (no lead or contact: it is nobody's),
 * delivered at once through the same transport and counted against the per-recipient limit, so a
 * test over it is skipped like any email. Null for an id that names no email.
 */
export async function sendTestEmail(
  db: pg.Pool,
  config: CatalogConfig & Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>,
  id: string,
  to: string,
): Promise<TestEmailResult | null> {
  const preview = emailPreview(id, await catalogContext(db, config));
  if (!preview) return null;
  const { content, kind } = preview;
  const emailId = await inTransaction(db, (client) =>
    queueEmail(client, { kind, to, subject: `${TEST_SUBJECT_PREFIX}${content.subject}`, text: content.text, html: content.html }),
  );
  try {
    // delivered here, so the admin hears how it went; the queued job then finds it done (or retries a failure)
    const delivered = await deliverEmail(db, smtpSender(config), emailId);
    return { to, status: delivered.status, ...(delivered.reason ? { reason: delivered.reason } : {}) };
  } catch (error) {
    return { to, status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}
