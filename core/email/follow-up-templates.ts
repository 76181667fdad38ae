import type { EmailKind } from '#machines/protocol/operations.js';
import type { SiteSettings } from '#machines/site-settings.js';
import { content, greeting, signOff, type EmailContent } from './compose.js';

/** The follow-up reminders' kinds of email_outbox row. */
export type FollowUpEmailKind = Extract<EmailKind, 'assessment_reminder' | 'booking_reminder'>;

/** Who a reminder goes to and where its links lead. */
interface ReminderDetails {
  name: string | null;
  /** The page that unsubscribes the address from reminders. */
  unsubscribeUrl: string;
}

/**
 * Every reminder's shape: why it comes, the one link it is for, a word after it, and at the end why
 * it came and the way to stop reminders (the headers offer it too).
 */
function reminder(
  subject: string,
  details: ReminderDetails,
  body: { why: string; link: { label: string; href: string }; after: string },
  site: SiteSettings,
): EmailContent {
  return content(
    subject,
    [
      greeting(details.name),
      { kind: 'p', text: body.why },
      { kind: 'link', ...body.link },
      { kind: 'p', text: body.after },
      signOff,
      {
        kind: 'p',
        text: 'You received this reminder because you left your email address with us. You can turn reminders off; what you ask for, such as your results, still comes.',
      },
      { kind: 'link', label: 'Unsubscribe from reminders', href: details.unsubscribeUrl },
    ],
    site,
  );
}

/** To a lead who gave their details but has not finished the assessment: the way back to where they stopped. */
export function assessmentReminder(details: ReminderDetails & { resumeUrl: string; linkDays: number }, site: SiteSettings): EmailContent {
  return reminder(
    'Your leadership assessment is waiting for you',
    details,
    {
      why: 'You started your leadership assessment but did not get to the end. Everything you answered is saved: pick up exactly where you stopped, and your archetype and scores follow as soon as you finish.',
      link: { label: 'Finish your assessment', href: details.resumeUrl },
      after: `The link is personal and works for ${details.linkDays} days. Opening it continues the assessment in that browser.`,
    },
    site,
  );
}

/** To a lead who paid the deposit but has not booked: the booking page, prefilled and carrying their reference. */
export function bookingReminder(details: ReminderDetails & { bookingUrl: string }, site: SiteSettings): EmailContent {
  return reminder(
    'Book your 45-minute strategy session',
    details,
    {
      why: 'Thank you again for your refundable deposit. It holds your 45-minute strategy session, and all that is left is to choose a time: it takes a minute, and your name and email are already filled in.',
      link: { label: 'Book your 45-minute strategy session', href: details.bookingUrl },
      after: 'If none of the times suit you, reply to this email and we will find one. The deposit stays 100% refundable.',
    },
    site,
  );
}
