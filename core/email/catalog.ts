import type { EmailPreview, ReminderSettings } from '#machines/protocol/admin/emails.js';
import type { EmailKind } from '#machines/protocol/operations.js';
import type { SiteSettings } from '#machines/site-settings.js';
import { RESUME_LINK_DAYS } from '../flows/resume-link.js';
import { REPORT_LINK_DAYS } from '../reports/report-link.js';
import type { EmailContent } from './compose.js';
import { assessmentReminder, bookingReminder } from './follow-up-templates.js';
import { depositReceipt, homeworkReceipt, refundConfirmation, type PaymentDetails } from './payment-templates.js';
import { resourcesFor } from './resources.js';
import { CONFIRM_LINK_DAYS } from '../leads/lead-attempts.js';
import {
  addressConfirmationEmail,
  contactConfirmation,
  contactNotification,
  homeworkEmail,
  resultsEmail,
  signInNotice,
  type ContactMessageDetails,
} from './templates.js';

/*
 * Every email the product sends, drawn for a sample lead (or contact message) by the very template
 * functions the real sends use, so the admin's Emails screen shows and test-sends what a lead gets
 * (decision 0049). Only the data is made up; the links point at this site but carry no real token.
 */

const SAMPLE_NAME = 'Alex Morgan';
const SAMPLE_EMAIL = 'alex.morgan@example.com';
const SAMPLE_ARCHETYPE = 'Trust-Builder Architect';
/** A fixed moment, so a preview reads the same on every load. */
const SAMPLE_AT = new Date('2026-01-15T10:30:00Z');

const samplePayment = (testMode: boolean): PaymentDetails => ({
  name: SAMPLE_NAME,
  amountCents: 25_000,
  currency: 'usd',
  reference: 'pi_sample_3Qx7Lm2eZvKYlo2C',
  at: SAMPLE_AT,
  testMode,
});

const sampleContact: ContactMessageDetails = {
  id: '00000000-0000-4000-8000-000000000000',
  name: SAMPLE_NAME,
  email: SAMPLE_EMAIL,
  company: 'Northwind Logistics',
  message:
    'I lead a team of twelve that has doubled in a year, and I have stopped being able to keep up with everyone. I would like to talk about coaching for the next six months.',
  receivedAt: SAMPLE_AT,
};

/** What the samples need from the server: its address, the coach's site settings and the reminders' timing. */
export interface CatalogContext {
  siteUrl: string;
  site: SiteSettings;
  reminders: ReminderSettings;
}

interface CatalogEntry {
  id: string;
  kind: EmailKind;
  name: string;
  audience: EmailPreview['audience'];
  when: (context: CatalogContext) => string;
  draw: (context: CatalogContext) => EmailContent;
}

const hours = (value: number) => (value === 1 ? '1 hour' : `${value} hours`);

function reminderWhen(setting: ReminderSettings[keyof ReminderSettings], after: string): string {
  return setting.enabled ? `${hours(setting.delayHours)} after ${after} (set in Site settings).` : 'Off: not sent (set in Site settings).';
}

const reportLink = (siteUrl: string) => ({
  url: `${siteUrl}/api/reports/sample.pdf`,
  expiresAt: new Date(SAMPLE_AT.getTime() + REPORT_LINK_DAYS * 86_400_000),
});

const ENTRIES: CatalogEntry[] = [
  {
    id: 'results',
    kind: 'results',
    name: 'Results',
    audience: 'lead',
    when: () => 'When the assessment is graded (not for a canned fallback result).',
    draw: ({ siteUrl, site }) =>
      resultsEmail({
        name: SAMPLE_NAME,
        report: {
          archetype: SAMPLE_ARCHETYPE,
          narrative:
            'You build teams people want to stay in. Your next step is letting that trust carry more of the weight: decisions made without you, and disagreements aired in the room.',
          scores: { LER: 72, DCR: 58, TBR: 84, OAD: 61, VIS: 66, FAD: 70 },
          leadershipScore: 68,
          keyInsights: [],
          tier: 'book_call',
          fallback: false,
        },
        reportLink: reportLink(siteUrl),
        siteUrl,
        site,
      }),
  },
  {
    id: 'deposit_receipt',
    kind: 'deposit_receipt',
    name: 'Receipt: deposit',
    audience: 'lead',
    when: () => 'When the $250 deposit is paid.',
    draw: ({ site }) => depositReceipt(samplePayment(false), 'https://calendly.com/', site),
  },
  {
    id: 'homework_receipt',
    kind: 'deposit_receipt',
    name: 'Receipt: paid homework',
    audience: 'lead',
    when: () => 'When paid homework is paid for (the homework itself is a separate email).',
    draw: ({ site }) => homeworkReceipt(samplePayment(false), site),
  },
  {
    id: 'refund_confirmation',
    kind: 'refund_confirmation',
    name: 'Refund confirmation',
    audience: 'lead',
    when: () => 'When a payment is refunded (from the admin, or in Stripe).',
    draw: ({ site }) => refundConfirmation(samplePayment(false), site),
  },
  {
    id: 'booking_reminder',
    kind: 'booking_reminder',
    name: 'Reminder to book',
    audience: 'lead',
    when: ({ reminders }) => reminderWhen(reminders.booking_reminder, 'the deposit, if no session is booked by then'),
    draw: ({ siteUrl, site }) =>
      bookingReminder({ name: SAMPLE_NAME, unsubscribeUrl: `${siteUrl}/unsubscribe/sample`, bookingUrl: 'https://calendly.com/' }, site),
  },
  {
    id: 'assessment_reminder',
    kind: 'assessment_reminder',
    name: 'Invitation to finish',
    audience: 'lead',
    when: ({ reminders }) =>
      reminderWhen(
        reminders.assessment_reminder,
        'the lead gave their details, if the assessment is unfinished and their address is proven',
      ),
    draw: ({ siteUrl, site }) =>
      assessmentReminder(
        {
          name: SAMPLE_NAME,
          unsubscribeUrl: `${siteUrl}/unsubscribe/sample`,
          resumeUrl: `${siteUrl}/resume/sample`,
          linkDays: RESUME_LINK_DAYS,
        },
        site,
      ),
  },
  {
    id: 'homework',
    kind: 'homework',
    name: 'Paid homework',
    audience: 'lead',
    when: () => 'When paid homework is paid for.',
    draw: ({ siteUrl, site }) =>
      homeworkEmail({
        name: SAMPLE_NAME,
        archetype: SAMPLE_ARCHETYPE,
        source: 'paid_homework',
        resources: resourcesFor(SAMPLE_ARCHETYPE, 'paid_homework'),
        reportLink: reportLink(siteUrl),
        site,
      }),
  },
  {
    id: 'free_resources',
    kind: 'free_resources',
    name: 'Free resources',
    audience: 'lead',
    when: () => 'When a homework-tier lead chooses the free resources.',
    draw: ({ siteUrl, site }) =>
      homeworkEmail({
        name: SAMPLE_NAME,
        archetype: SAMPLE_ARCHETYPE,
        source: 'free_resources',
        resources: resourcesFor(SAMPLE_ARCHETYPE, 'free_resources'),
        reportLink: reportLink(siteUrl),
        site,
      }),
  },
  {
    id: 'address_confirmation',
    kind: 'address_confirmation',
    name: 'Was this you?',
    audience: 'lead',
    when: () =>
      "When someone types a known lead's address in a browser that has not proven it: instead of the results, one link that gives that assessment to the lead (decision 0044).",
    draw: ({ siteUrl, site }) =>
      addressConfirmationEmail({ name: SAMPLE_NAME, confirmLink: `${siteUrl}/confirm?token=sample`, days: CONFIRM_LINK_DAYS, site }),
  },
  {
    id: 'contact_confirmation',
    kind: 'contact_confirmation',
    name: 'Contact confirmation',
    audience: 'contact',
    when: () => 'To the visitor, when the contact form is sent.',
    draw: ({ siteUrl, site }) => contactConfirmation(sampleContact, siteUrl, site),
  },
  {
    id: 'contact_notification',
    kind: 'contact_notification',
    name: 'Contact notification',
    audience: 'coach',
    when: () => 'To you, when the contact form is sent.',
    draw: () => contactNotification(sampleContact),
  },
  {
    id: 'sign_in_notice',
    kind: 'sign_in_notice',
    name: 'Sign-in notice',
    audience: 'coach',
    when: () => "To an admin account's owner, after many failed sign-ins in an hour.",
    draw: ({ siteUrl }) => signInNotice({ failures: 12, addresses: 3, siteUrl }),
  },
];

const textOf = ({ subject, text }: EmailContent) => ({ subject, text });

/** Every email's preview, in the order the Emails screen lists them. */
export function emailPreviews(context: CatalogContext): EmailPreview[] {
  return ENTRIES.map((entry) => ({
    id: entry.id,
    kind: entry.kind,
    name: entry.name,
    audience: entry.audience,
    when: entry.when(context),
    ...textOf(entry.draw(context)),
  }));
}

/** One preview by its id, with the kind it is stored as, or null for an id that names none. */
export function emailPreview(id: string, context: CatalogContext): { kind: EmailKind; content: EmailContent } | null {
  const entry = ENTRIES.find((candidate) => candidate.id === id);
  return entry ? { kind: entry.kind, content: entry.draw(context) } : null;
}
