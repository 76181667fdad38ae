import { DISPLAY_DIMENSIONS, type DisplayDimension } from '#machines/content/index.js';
import type { HomeworkSource } from '#machines/protocol/assessment-flow.js';
import { formatScore, SCORE_NAMES } from '#machines/grading/score-names.js';
import type { SiteSettings } from '#machines/site-settings.js';
import { nextStep } from '../reports/content.js';
import type { ReportLink } from '../reports/report-link.js';
import type { ReportInput } from '../reports/report-input.js';
import { content, firstName, greeting, RESPONSE_PROMISE, signOff, type EmailContent } from './compose.js';
import type { Block } from './layout.js';
import type { ResourceSet } from './resources.js';

/**
 * How much of a contact message the sender's confirmation quotes back. The confirmation goes to
 * whatever address was typed, so it must not carry a stranger's long text to someone else's inbox.
 */
export const QUOTE_MAX = 300;

/** `text` cut to `max` characters at a word where it can be, with an ellipsis when cut. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface ContactMessageDetails {
  id: string;
  name: string;
  email: string;
  company: string | null;
  message: string;
  receivedAt: Date;
}

/** To the visitor who used the contact form: the 24-hour promise and the start of what they sent. */
export function contactConfirmation(contact: ContactMessageDetails, siteUrl: string, site: SiteSettings): EmailContent {
  const first = firstName(contact.name);
  return content(
    first ? `Thank you for your message, ${first}` : 'Thank you for your message',
    [
      greeting(contact.name),
      {
        kind: 'p',
        text: `Thank you for reaching out. ${RESPONSE_PROMISE} I read every message myself, so the reply will come from me rather than from a template.`,
      },
      {
        kind: 'p',
        text:
          contact.message.length > QUOTE_MAX
            ? 'Here is how your message began, for your records:'
            : 'Here is what you sent, for your records:',
      },
      { kind: 'quote', text: bounded(contact.message, QUOTE_MAX) },
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
    ],
    site,
  );
}

/** To the coach: who wrote, what they said, and the promise made to them. Reply-To is the visitor. */
export function contactNotification(contact: ContactMessageDetails): EmailContent {
  const from = contact.company ? `${contact.name} (${contact.company})` : contact.name;
  return content(
    `New contact message from ${from}`,
    [
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
    ],
    null,
  );
}

/** Made once: a formatter per call costs about 50 µs. */
const LINK_DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The paragraph and link to the lead's PDF report (decision 0040), with the day the link stops
 * working; nothing when there is no stored report to link to (the canned fallback result).
 */
function reportLinkBlocks(link: ReportLink | null, contents: string): Block[] {
  if (!link) return [];
  return [
    {
      kind: 'p',
      text: `Your full report is a PDF to download: ${contents}. The link is personal and works until ${LINK_DAY.format(link.expiresAt)}.`,
    },
    { kind: 'link', label: 'Download Report', href: link.url },
  ];
}

export interface HomeworkDetails {
  name: string | null;
  archetype: string;
  source: HomeworkSource;
  resources: ResourceSet;
  /** The signed link to the lead's report, or null when there is none. */
  reportLink: ReportLink | null;
  site: SiteSettings;
}

/** The homework (paid) or free-resources email: the archetype's focus, readings and exercises, with the link to the report. */
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
    ...reportLinkBlocks(details.reportLink, 'your narrative, your six dimension scores and three actions to start with this week'),
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
  return content(subject, blocks, details.site);
}

export interface ResultsDetails {
  name: string | null;
  report: ReportInput;
  /** The signed link to the lead's report, or null when there is none. */
  reportLink: ReportLink | null;
  siteUrl: string;
  site: SiteSettings;
}

/**
 * The results the capture step promised ("We will send your results to this address"): the
 * archetype and its narrative, the six dimensions on the results page's 0-100 scale, the tier's
 * next step (the nurture tier's links the community page), and the link to the PDF report.
 */
export function resultsEmail(details: ResultsDetails): EmailContent {
  const { report } = details;
  const step = nextStep(report.tier);
  const dimensions = (Object.keys(DISPLAY_DIMENSIONS) as DisplayDimension[])
    .filter((key) => report.scores[key] !== undefined)
    .map((key): [string, string] => [DISPLAY_DIMENSIONS[key].label, formatScore(report.scores[key]!)]);
  return content(
    `Your leadership results: ${report.archetype}`,
    [
      greeting(details.name),
      { kind: 'p', text: 'Thank you for taking the Leadership Diagnostic. As promised, here are your results.' },
      { kind: 'heading', text: `Your archetype: ${report.archetype}` },
      { kind: 'p', text: report.narrative },
      { kind: 'heading', text: 'Your scores' },
      {
        kind: 'fields',
        rows: [
          ...(report.leadershipScore === null ? [] : [[SCORE_NAMES.leadership, formatScore(report.leadershipScore)] as [string, string]]),
          ...dimensions,
        ],
      },
      { kind: 'heading', text: `Your next step: ${step.title}` },
      { kind: 'p', text: step.body },
      ...(report.tier === 'nurture'
        ? [{ kind: 'link', label: 'Join the Free Community', href: details.site.communityUrl } satisfies Block]
        : []),
      ...reportLinkBlocks(details.reportLink, 'the narrative, the six dimensions and three actions to start with this week'),
      { kind: 'link', label: 'Continue on the site', href: details.siteUrl },
      signOff,
    ],
    details.site,
  );
}

/**
 * To an admin account's owner whose account saw many failed sign-ins in an hour: what happened,
 * that nothing was locked, and what to do if it was not them. Carries no address or password.
 */
export function signInNotice(details: { failures: number; addresses: number; siteUrl: string }): EmailContent {
  const from = details.addresses === 1 ? 'one address' : `${details.addresses} different addresses`;
  return content(
    'Failed sign-ins to your admin account',
    [
      { kind: 'p', text: 'Hi,' },
      {
        kind: 'p',
        text: `In the last hour there were ${details.failures} failed attempts to sign in to your admin account, from ${from}. Each address has to wait longer after each wrong password, and your own sign-in still works.`,
      },
      {
        kind: 'p',
        text: 'If this was you, there is nothing to do. If it was not, someone is guessing your password: make sure it is long and used nowhere else, and change it with `npm run admin -- reset-password` if in doubt.',
      },
      { kind: 'link', label: 'Sign in to the admin area', href: `${details.siteUrl}/auth` },
      signOff,
    ],
    null,
  );
}

/**
 * To a known lead's address, when someone who has not proven it captured it and went on (decision
 * 0044): "Was this you?", and the one-time link that confirms the attempt. Nothing of what was
 * answered is in it, and the name typed in the attempt is not used: the greeting is the lead's own.
 */
export function addressConfirmationEmail(details: { name: string; confirmLink: string; days: number; site: SiteSettings }): EmailContent {
  return content(
    'Was this you? Confirm to see and keep these results',
    [
      greeting(details.name),
      {
        kind: 'p',
        text: 'Someone just took the Leadership Diagnostic with this email address. Was this you? Confirm to see and keep these results.',
      },
      { kind: 'link', label: 'Confirm my email address', href: details.confirmLink },
      {
        kind: 'p',
        text: `The link works for ${details.days} days. If this was not you, ignore this email: nothing is added to your results and no other email is sent.`,
      },
      signOff,
    ],
    details.site,
  );
}
