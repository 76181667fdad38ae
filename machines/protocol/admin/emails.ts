import { z } from 'zod';
import type { EmailKind } from '../operations.js';
import { timestamp } from './common.js';

/** The follow-up reminders the coach can turn off and delay (decision 0049). */
export const REMINDER_KINDS = ['booking_reminder', 'assessment_reminder'] as const satisfies readonly EmailKind[];
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** One reminder as set: sent or not, and how many hours after its start it comes. */
const reminderSettingSchema = z.strictObject({
  enabled: z.boolean({ error: 'Expected on (true) or off (false).' }),
  delayHours: z
    .number({ error: 'Expected a number of hours.' })
    .positive('Expected more than 0 hours.')
    .max(720, 'Expected at most 720 hours (30 days).'),
});
export type ReminderSetting = z.infer<typeof reminderSettingSchema>;

/** PUT /api/admin/reminder-settings: both reminders, as a whole. */
export const reminderSettingsSchema = z.strictObject({
  booking_reminder: reminderSettingSchema,
  assessment_reminder: reminderSettingSchema,
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

/** GET/PUT /api/admin/reminder-settings: the settings in force, and when the coach last saved them (null: the server's defaults). */
export const reminderSettingsViewSchema = z.object({
  settings: reminderSettingsSchema,
  updatedAt: timestamp.nullable(),
});
export type ReminderSettingsView = z.infer<typeof reminderSettingsViewSchema>;

/** Who an email goes to: a lead, a visitor who used the contact form, or the coach. */
const EMAIL_AUDIENCES = ['lead', 'contact', 'coach'] as const;

/** GET /api/admin/emails: every kind the product sends, each previewed from a sample lead or message. */
export const emailPreviewSchema = z.object({
  /** Names the preview (POST /api/admin/emails/:id/test); an email kind, or homework_receipt (a deposit_receipt row). */
  id: z.string(),
  /** The email_outbox kind it is sent as. */
  kind: z.string(),
  /** What it is, in the coach's words. */
  name: z.string(),
  audience: z.enum(EMAIL_AUDIENCES),
  /** When it is sent, in the coach's words. */
  when: z.string(),
  subject: z.string(),
  /** The plain-text body as it would be sent (the HTML body carries the same words). */
  text: z.string(),
});
export type EmailPreview = z.infer<typeof emailPreviewSchema>;
export const emailCatalogSchema = z.object({
  previews: z.array(emailPreviewSchema),
  /** Where "Send me a test" delivers: the signed-in admin's own address. */
  testRecipient: z.string(),
});
export type EmailCatalog = z.infer<typeof emailCatalogSchema>;

/**
 * POST /api/admin/emails/:id/test: how the test went: sent, recorded (no SMTP configured), skipped
 * (over the per-recipient limit) or failed (the mail server's answer in `reason`; the job retries it).
 */
export const testEmailResultSchema = z.object({
  to: z.string(),
  status: z.enum(['sent', 'recorded', 'skipped', 'failed']),
  reason: z.string().optional(),
});
export type TestEmailResult = z.infer<typeof testEmailResultSchema>;

/** An email as a lead or contact got it: the lead's page and a contact message list each of theirs. */
export const sentEmailSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  to_address: z.string(),
  subject: z.string(),
  /** The plain-text body, as they received it (the HTML body carries the same words). */
  text_body: z.string(),
  /** Listed by name and size; the files themselves are rebuilt, not stored. */
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
  status: z.string(),
  error: z.string().nullable(),
  created_at: timestamp,
  sent_at: timestamp.nullable(),
});
export type SentEmail = z.infer<typeof sentEmailSchema>;
