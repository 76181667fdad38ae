import { describe, expect, it } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { archetypes } from '#machines/content/index.js';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from '#machines/site-settings.js';
import type { Tier } from '#machines/protocol/index.js';
import { reportOf } from '../reports/report-pdf.js';
import { resourcesFor } from './resources.js';
import type { EmailContent } from './compose.js';
import { depositReceipt, refundConfirmation } from './payment-templates.js';
import { contactConfirmation, contactNotification, homeworkEmail, QUOTE_MAX, resultsEmail, signInNotice } from './templates.js';

/** Settings a coach saved: every contact detail set, one with characters HTML must escape. */
const site: SiteSettings = {
  ...DEFAULT_SITE_SETTINGS,
  communityUrl: 'https://community.example.com/leaders',
  contact: {
    name: 'Dana Whitfield & Partners',
    email: 'dana@coach.example.com',
    phone: '+44 20 7946 0958',
    location: 'Bristol, UK',
    hours: 'Mon-Fri, 9:00-17:00',
  },
};
const CONTACT_LINES = ['Dana Whitfield & Partners', 'dana@coach.example.com', '+44 20 7946 0958', 'Bristol, UK', 'Mon-Fri, 9:00-17:00'];

/** A report link as the jobs make it (core/reports/report-link.ts). */
const link = { url: 'https://coach.example.com/api/reports/link?token=abc.def.sig', expiresAt: new Date('2026-12-27T10:00:00Z') };

const contact = {
  id: '3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b',
  name: 'Grace <b>Hopper</b>',
  email: 'grace@example.com',
  company: 'Navy & Co',
  message: 'Our team leads are stretched.\nCan we talk next week?',
  receivedAt: new Date('2026-03-01T09:30:00Z'),
};

describe('contact emails', () => {
  it('confirms to the sender with the 24-hour promise and a copy of the message', () => {
    const email = contactConfirmation(contact, 'https://coach.example.com', site);
    expect(email.subject).toBe('Thank you for your message, Grace');
    expect(email.text).toContain("Thank you for reaching out. We'll respond within 24 hours.");
    expect(email.text).toContain('> Our team leads are stretched.\n> Can we talk next week?');
    expect(email.text).toContain('https://coach.example.com/#lead-magnets');
    expect(email.html).toContain('We&#39;ll respond within 24 hours.');
  });

  it("quotes at most the start of a long message back, so the form cannot carry a stranger's text to any inbox", () => {
    const long = `${'Please forward this to everyone you know. '.repeat(40)}END`;
    const email = contactConfirmation({ ...contact, name: `${'x'.repeat(150)} Smith`, message: long }, 'https://coach.example.com', site);
    expect(email.text).toContain('Here is how your message began');
    expect(email.text).not.toContain('END');
    const quoted = email.text
      .split('\n')
      .filter((line) => line.startsWith('> '))
      .join(' ');
    expect(quoted.length).toBeLessThanOrEqual(QUOTE_MAX + 10);
    expect(quoted.endsWith('…')).toBe(true);
    expect(email.subject.length).toBeLessThan(80);
    // the coach's own copy keeps the whole message
    expect(contactNotification({ ...contact, message: long }).text).toContain('END');
  });

  it('escapes what the visitor typed in the HTML body', () => {
    const email = contactNotification(contact);
    expect(email.subject).toBe('New contact message from Grace <b>Hopper</b> (Navy & Co)');
    expect(email.html).not.toContain('<b>Hopper</b>');
    expect(email.html).toContain('Grace &#60;b&#62;Hopper&#60;/b&#62;');
    expect(email.html).toContain('Navy &#38; Co');
    expect(email.text).toContain('Email: grace@example.com');
    expect(email.text).toContain('within 24 hours');
    expect(email.text).toContain(contact.id);
  });

  it('says so when no company was given', () => {
    expect(contactNotification({ ...contact, company: null }).text).toContain('Company: Not given');
  });
});

describe('homework emails', () => {
  it('sends the paid programme: three readings and four numbered weeks', () => {
    const resources = resourcesFor('Visionary Firebrand', 'paid_homework');
    const email = homeworkEmail({
      name: 'Ada Lovelace',
      archetype: 'Visionary Firebrand',
      source: 'paid_homework',
      resources,
      reportLink: link,
      site,
    });
    expect(email.subject).toBe('Your four-week leadership homework: Visionary Firebrand');
    expect(email.text).toMatch(/^Hi Ada,/);
    expect(email.text).toContain('Essentialism, by Greg McKeown');
    for (const week of [1, 2, 3, 4]) expect(email.text).toContain(`${week}. Week ${week}: `);
    expect(email.text).toContain('The link is personal and works until 27 December 2026.');
    expect(email.text).toContain(`Download Report: ${link.url}`);
    expect(email.text).not.toContain('attached');
  });

  it('sends free resources as a lighter set, and greets a community member neutrally', () => {
    const resources = resourcesFor('Reluctant Steward', 'free_resources');
    const email = homeworkEmail({
      name: 'Community Member',
      archetype: 'Reluctant Steward',
      source: 'free_resources',
      resources,
      reportLink: link,
      site,
    });
    expect(email.subject).toBe('Your free leadership resources: Reluctant Steward');
    expect(email.text).toMatch(/^Hi there,/);
    expect(email.text).not.toContain('Week 1');
    expect(email.text).toContain('ONE EXERCISE TO TRY THIS WEEK');
  });
});

const results = (tier: Tier, settings: SiteSettings = site) =>
  resultsEmail({
    name: 'Ada Lovelace',
    report: { ...reportOf(resultFor(tier)), leadershipScore: 64 },
    reportLink: link,
    siteUrl: 'https://coach.example.com',
    site: settings,
  });
const payment = {
  name: 'Ada',
  amountCents: 25_000,
  currency: 'usd',
  reference: 'pi_test_123',
  at: new Date('2026-03-01T09:30:00Z'),
  testMode: true,
};

describe("the coach's contact details", () => {
  const visitorEmails: Record<string, (settings: SiteSettings) => EmailContent> = {
    'contact confirmation': (settings) => contactConfirmation(contact, 'https://coach.example.com', settings),
    homework: (settings) => {
      const resources = resourcesFor('Reluctant Steward', 'free_resources');
      return homeworkEmail({
        name: 'Ada',
        archetype: 'Reluctant Steward',
        source: 'free_resources',
        resources,
        reportLink: link,
        site: settings,
      });
    },
    results: (settings) => results('book_call', settings),
    'deposit receipt': (settings) => depositReceipt(payment, null, settings),
    'refund confirmation': (settings) => refundConfirmation(payment, settings),
  };

  it.each(Object.keys(visitorEmails))('close the %s, below a signature rule, escaped in HTML', (kind) => {
    const email = visitorEmails[kind]!(site);
    expect(email.text.endsWith(`\n-- \n${CONTACT_LINES.join('\n')}\n`)).toBe(true);
    expect(email.html).toContain(
      'Dana Whitfield &#38; Partners<br>dana@coach.example.com<br>+44 20 7946 0958<br>Bristol, UK<br>Mon-Fri, 9:00-17:00',
    );
  });

  it.each(Object.keys(visitorEmails))('leave out what the coach has not set (the %s on a fresh install: the site name only)', (kind) => {
    const email = visitorEmails[kind]!(DEFAULT_SITE_SETTINGS);
    expect(email.text.endsWith('\n-- \nLeadership Coaching\n')).toBe(true);
    const partial = visitorEmails[kind]!({ ...site, contact: { ...site.contact, phone: null, location: null } });
    expect(partial.text.endsWith('\n-- \nDana Whitfield & Partners\ndana@coach.example.com\nMon-Fri, 9:00-17:00\n')).toBe(true);
  });

  it("are not added to the coach's own emails", () => {
    for (const email of [
      contactNotification(contact),
      signInNotice({ failures: 12, addresses: 2, siteUrl: 'https://coach.example.com' }),
    ]) {
      expect(email.text).not.toContain('\n-- \n');
      expect(email.html).not.toContain('border-top:1px solid');
    }
  });
});

describe('results emails', () => {
  it("link the nurture tier's next step to the community page the coach set", () => {
    const nurture = results('nurture');
    expect(nurture.text).toContain('YOUR NEXT STEP: JOIN THE FREE COMMUNITY');
    expect(nurture.text).toContain('Join the Free Community: https://community.example.com/leaders');
    expect(nurture.html).toContain('href="https://community.example.com/leaders"');
    expect(results('nurture', DEFAULT_SITE_SETTINGS).text).toContain(`Join the Free Community: ${DEFAULT_SITE_SETTINGS.communityUrl}`);
  });

  it('give the other tiers no community link', () => {
    for (const tier of ['book_call', 'homework'] as const) expect(results(tier).text).not.toContain('community.example.com');
  });

  it('link the PDF report, saying until when the link works, and say nothing of a report when there is none to link', () => {
    const email = results('homework');
    expect(email.text).toContain('Your full report is a PDF to download');
    expect(email.text).toContain('The link is personal and works until 27 December 2026.');
    expect(email.text).toContain(`Download Report: ${link.url}`);
    expect(email.html).toContain(`href="${link.url}"`);
    expect(email.text).not.toContain('attached');
    const fallback = resultsEmail({
      name: 'Ada',
      report: reportOf(resultFor('nurture')),
      reportLink: null,
      siteUrl: 'https://coach.example.com',
      site,
    });
    expect(fallback.text).not.toMatch(/report/i);
  });
});

describe('resourcesFor', () => {
  it('has a distinct set for each of the eight archetypes', () => {
    const focuses = new Set(archetypes.map((a) => resourcesFor(a.name, 'paid_homework').focus));
    expect(focuses.size).toBe(8);
    for (const archetype of archetypes) {
      const paid = resourcesFor(archetype.name, 'paid_homework');
      const free = resourcesFor(archetype.name, 'free_resources');
      expect([paid.readings.length, paid.exercises.length, paid.programme]).toEqual([3, 4, true]);
      expect([free.readings.length, free.exercises.length, free.programme]).toEqual([2, 1, false]);
    }
  });

  it('falls back to the foundations for the leadership-level labels and anything unknown', () => {
    const foundations = resourcesFor('Emerging Leader', 'free_resources');
    expect(foundations.readings[0]?.title).toBe('The Making of a Manager');
    expect(resourcesFor('constructor', 'free_resources')).toEqual(foundations);
  });
});
