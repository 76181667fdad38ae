import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { assessmentReminder, bookingReminder } from './follow-up-templates.js';

const unsubscribeUrl = 'https://coach.example.com/unsubscribe?token=3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b.abc';

describe('the follow-up reminders', () => {
  it('invite back to the assessment with the resume link, how long it works and the way to unsubscribe', () => {
    const email = assessmentReminder(
      { name: 'Grace <b>Hopper</b>', unsubscribeUrl, resumeUrl: 'https://coach.example.com/resume?token=a.b&c', linkDays: 7 },
      DEFAULT_SITE_SETTINGS,
    );
    expect(email.subject).toBe('Your leadership assessment is waiting for you');
    expect(email.text).toMatch(/^Hi Grace,/);
    expect(email.text).toContain('Finish your assessment: https://coach.example.com/resume?token=a.b&c');
    expect(email.text).toContain('works for 7 days');
    expect(email.text).toContain(`Unsubscribe from reminders: ${unsubscribeUrl}`);
    expect(email.html).toContain('href="https://coach.example.com/resume?token=a.b&#38;c"');
    expect(email.html).toContain(`href="${unsubscribeUrl}"`);
    expect(email.html).not.toContain('<b>Hopper');
  });

  it('remind a paying lead to book, linking to the booking page given, with the way to unsubscribe', () => {
    const bookingUrl = 'https://calendly.com/coach/strategy?utm_content=3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b';
    const email = bookingReminder({ name: 'Community Member', unsubscribeUrl, bookingUrl }, DEFAULT_SITE_SETTINGS);
    expect(email.subject).toBe('Book your 45-minute strategy session');
    expect(email.text).toMatch(/^Hi there,/);
    expect(email.text).toContain(`Book your 45-minute strategy session: ${bookingUrl}`);
    expect(email.text).toContain('100% refundable');
    expect(email.html).toContain(`href="${unsubscribeUrl}"`);
  });
});
