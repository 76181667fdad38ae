import { describe, expect, it } from 'vitest';
import { archetypes } from '../../machines/content/index.js';
import { resourcesFor } from './resources.js';
import { contactConfirmation, contactNotification, homeworkEmail, QUOTE_MAX } from './templates.js';

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
    const email = contactConfirmation(contact, 'https://coach.example.com');
    expect(email.subject).toBe('Thank you for your message, Grace');
    expect(email.text).toContain("Thank you for reaching out. We'll respond within 24 hours.");
    expect(email.text).toContain('> Our team leads are stretched.\n> Can we talk next week?');
    expect(email.text).toContain('https://coach.example.com/#lead-magnets');
    expect(email.html).toContain('We&#39;ll respond within 24 hours.');
  });

  it("quotes at most the start of a long message back, so the form cannot carry a stranger's text to any inbox", () => {
    const long = `${'Please forward this to everyone you know. '.repeat(40)}END`;
    const email = contactConfirmation({ ...contact, name: `${'x'.repeat(150)} Smith`, message: long }, 'https://coach.example.com');
    expect(email.text).toContain('Here is how your message began');
    expect(email.text).not.toContain('END');
    const quoted = email.text.split('\n').filter((line) => line.startsWith('> ')).join(' ');
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
    const email = homeworkEmail({ name: 'Ada Lovelace', archetype: 'Visionary Firebrand', source: 'paid_homework', resources: resourcesFor('Visionary Firebrand', 'paid_homework') });
    expect(email.subject).toBe('Your four-week leadership homework: Visionary Firebrand');
    expect(email.text).toMatch(/^Hi Ada,/);
    expect(email.text).toContain('Essentialism, by Greg McKeown');
    for (const week of [1, 2, 3, 4]) expect(email.text).toContain(`${week}. Week ${week}: `);
    expect(email.text).toContain('attached as a PDF');
  });

  it('sends free resources as a lighter set, and greets a community member neutrally', () => {
    const email = homeworkEmail({ name: 'Community Member', archetype: 'Reluctant Steward', source: 'free_resources', resources: resourcesFor('Reluctant Steward', 'free_resources') });
    expect(email.subject).toBe('Your free leadership resources: Reluctant Steward');
    expect(email.text).toMatch(/^Hi there,/);
    expect(email.text).not.toContain('Week 1');
    expect(email.text).toContain('ONE EXERCISE TO TRY THIS WEEK');
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
