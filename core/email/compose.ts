import type { CoachContact, SiteSettings } from '#machines/site-settings.js';
import { DEFAULT_LEAD_NAME } from '../leads/lead-service.js';
import { BRAND, render, type Block, type Rendered } from './layout.js';

/** An email's subject and bodies. */
export interface EmailContent extends Rendered {
  subject: string;
}

/** The contact page's promise, repeated in the confirmation. */
export const RESPONSE_PROMISE = "We'll respond within 24 hours.";

/** How every email to a visitor ends. */
export const signOff: Block = { kind: 'p', text: `Warmly,\nYour coach at ${BRAND.name}` };

/** The longest first name an email addresses someone by. */
const FIRST_NAME_MAX = 40;

/** The first word of a real name, bounded; null for none or the community default. */
export function firstName(name: string | null | undefined): string | null {
  const first = name && name !== DEFAULT_LEAD_NAME ? name.trim().split(/\s+/)[0] : null;
  return first ? first.slice(0, FIRST_NAME_MAX) : null;
}

/** 'Hi' and the first name, or 'Hi there' without one. */
export function greeting(name: string | null | undefined): Block {
  const first = firstName(name);
  return { kind: 'p', text: first ? `Hi ${first},` : 'Hi there,' };
}

/** The footer of every email to a visitor: how to reach the coach, as the admin's site settings say. */
function contactLines(contact: CoachContact): string[] {
  return [contact.name, contact.email, contact.phone, contact.location, contact.hours].filter((line): line is string => Boolean(line));
}

/** An email; `site` (the settings now) gives a visitor's email the coach's contact details, null for the coach's own. */
export function content(subject: string, blocks: Block[], site: Pick<SiteSettings, 'contact'> | null): EmailContent {
  return { subject, ...render(blocks, site ? contactLines(site.contact) : []) };
}
