import type { HomeworkSource } from '../../machines/protocol/assessment-flow.js';
import { DEFAULT_LEAD_NAME } from '../leads/lead-service.js';
import { BRAND, render, type Block, type Rendered } from './layout.js';
import type { ResourceSet } from './resources.js';

/** An email's subject and bodies. */
export interface EmailContent extends Rendered {
  subject: string;
}

/** The contact-page promise (spec sections 8 and 9), repeated in the confirmation. */
export const RESPONSE_PROMISE = "We'll respond within 24 hours.";

const signOff: Block = { kind: 'p', text: `Warmly,\nYour coach at ${BRAND.name}` };

/** The first word of a real name; null for none or the community default. */
function firstName(name: string | null | undefined): string | null {
  return name && name !== DEFAULT_LEAD_NAME ? (name.trim().split(/\s+/)[0] ?? null) : null;
}

function greeting(name: string | null | undefined): Block {
  const first = firstName(name);
  return { kind: 'p', text: first ? `Hi ${first},` : 'Hi there,' };
}

function content(subject: string, blocks: Block[]): EmailContent {
  return { subject, ...render(blocks) };
}

export interface ContactMessageDetails {
  id: string;
  name: string;
  email: string;
  company: string | null;
  message: string;
  receivedAt: Date;
}

/** To the visitor who used the contact form: the 24-hour promise and a copy of what they sent. */
export function contactConfirmation(contact: ContactMessageDetails, siteUrl: string): EmailContent {
  const first = firstName(contact.name);
  return content(first ? `Thank you for your message, ${first}` : 'Thank you for your message', [
    greeting(contact.name),
    { kind: 'p', text: `Thank you for reaching out. ${RESPONSE_PROMISE} I read every message myself, so the reply will come from me rather than from a template.` },
    { kind: 'p', text: 'Here is what you sent, for your records:' },
    { kind: 'quote', text: contact.message },
    {
      kind: 'p',
      text: 'If you would like to add anything (what prompted you to write, the size of your team, a few times that suit you for a call), simply reply to this email.',
    },
    {
      kind: 'p',
      text: 'While you wait: the free Leadership Diagnostic takes about ten minutes and gives you an archetype and six dimension scores. It makes our first conversation far more useful.',
    },
    { kind: 'link', label: 'Take the Free Leadership Diagnostic', href: `${siteUrl}/#lead-magnets` },
    signOff,
  ]);
}

/** To the coach: who wrote, what they said, and the promise made to them. Reply-To is the visitor. */
export function contactNotification(contact: ContactMessageDetails): EmailContent {
  const from = contact.company ? `${contact.name} (${contact.company})` : contact.name;
  return content(`New contact message from ${from}`, [
    { kind: 'p', text: `${contact.name} wrote through the contact form on ${contact.receivedAt.toUTCString()}.` },
    {
      kind: 'fields',
      rows: [
        ['Name', contact.name],
        ['Email', contact.email],
        ['Company', contact.company ?? 'Not given'],
      ],
    },
    { kind: 'quote', text: contact.message },
    {
      kind: 'p',
      text: `They were promised an answer within 24 hours. Reply to this email to answer ${firstName(contact.name) ?? 'them'} directly.`,
    },
    { kind: 'fields', rows: [['Submission', contact.id]] },
  ]);
}

export interface HomeworkDetails {
  name: string | null;
  archetype: string;
  source: HomeworkSource;
  resources: ResourceSet;
}

/** The homework (paid) or free-resources email: the archetype's focus, readings and exercises, with the report attached. */
export function homeworkEmail(details: HomeworkDetails): EmailContent {
  const { resources, archetype } = details;
  const paid = details.source === 'paid_homework';
  const blocks: Block[] = [
    greeting(details.name),
    {
      kind: 'p',
      text: paid
        ? `Thank you for your deposit, and for taking this seriously. Here is your four-week homework programme, built around your result: ${archetype}.`
        : `As promised, here are your free resources, chosen for your result: ${archetype}.`,
    },
    { kind: 'p', text: resources.focus },
    {
      kind: 'p',
      text: 'Your full report is attached as a PDF: your narrative, your six dimension scores and three actions to start with this week.',
    },
    { kind: 'heading', text: paid ? 'Your reading' : 'Where to start reading' },
    { kind: 'items', ordered: false, items: resources.readings.map((r) => ({ title: `${r.title}, by ${r.author}`, body: r.why })) },
    { kind: 'heading', text: resources.programme ? 'Your four-week programme' : 'One exercise to try this week' },
    {
      kind: 'items',
      ordered: resources.programme,
      items: resources.exercises.map((e, i) => ({ title: resources.programme ? `Week ${i + 1}: ${e.title}` : e.title, body: e.how })),
    },
    {
      kind: 'p',
      text: paid
        ? 'At the end of each week, reply to this email with two lines: what you tried and what you noticed. I read every reply, and we will build on them when we meet.'
        : 'Small, honest experiments beat big plans. If you try the exercise, reply and tell me what happened: I read every reply.',
    },
    signOff,
  ];
  const subject = paid ? `Your four-week leadership homework: ${archetype}` : `Your free leadership resources: ${archetype}`;
  return content(subject, blocks);
}
