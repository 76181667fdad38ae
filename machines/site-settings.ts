/*
 * The site settings the coach edits in the admin (community page, social profiles, contact details)
 * and what applies until they do. Shared by the server (the store's defaults, the emails) and the
 * browser (the fallback while GET /api/config loads), so a fresh install reads the same everywhere.
 */

/** The seven social links of the home page and footer, in the order they are shown. */
export const SOCIAL_IDS = ['video', 'professional', 'community', 'x', 'facebook', 'instagram', 'tiktok'] as const;
export type SocialId = (typeof SOCIAL_IDS)[number];

/** How visitors reach the coach: shown on the contact page and at the foot of every email to a visitor. */
export interface CoachContact {
  /** The name visitors see (the coach's or the practice's). */
  name: string;
  email: string | null;
  phone: string | null;
  /** Where the coach works from, e.g. 'London, UK'. */
  location: string | null;
  /** When the coach answers, e.g. 'Monday to Friday, 9:00-17:00 GMT'. */
  hours: string | null;
}

/** Everything in the settings is meant for visitors: GET /api/config hands all of it out. */
export interface SiteSettings {
  /** The free community page the nurture step and the results email link to. */
  communityUrl: string;
  /** Each platform's profile address; null hides that platform. */
  socialLinks: Record<SocialId, string | null>;
  contact: CoachContact;
}

/** The booking page the deposit's next step opens while the Integrations scheduling card has none. */
export const DEFAULT_SCHEDULING_URL = 'https://calendly.com/';

/** A fresh install: the platforms' front pages and no contact details beyond the site's name. */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  communityUrl: 'https://www.skool.com/',
  socialLinks: {
    video: 'https://www.youtube.com/',
    professional: 'https://www.linkedin.com/',
    community: 'https://www.skool.com/',
    x: 'https://x.com/',
    facebook: 'https://www.facebook.com/',
    instagram: 'https://www.instagram.com/',
    tiktok: 'https://www.tiktok.com/',
  },
  contact: { name: 'Leadership Coaching', email: null, phone: null, location: null, hours: null },
};

/**
 * A link to a platform's home page rather than to the coach's own profile or group (what a fresh
 * install links to): a web address with no path.
 */
export function isPlatformHomePage(link: string): boolean {
  return /^https?:\/\/[^/?#]+\/?(?:[?#].*)?$/i.test(link.trim());
}

/** The social platforms and the community link still pointing at a platform's home page, for the coach to set. */
export function placeholderLinks(settings: SiteSettings): Array<SocialId | 'communityUrl'> {
  const social = SOCIAL_IDS.filter((id) => {
    const link = settings.socialLinks[id];
    return link !== null && isPlatformHomePage(link);
  });
  return isPlatformHomePage(settings.communityUrl) ? ['communityUrl', ...social] : social;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const webAddress = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//.test(value);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

/**
 * The settings in an answer of GET /api/config, each part that is missing or unreadable replaced
 * by its default (a browser must never link to something that is not a web address).
 */
export function siteSettingsFrom(answer: unknown): SiteSettings {
  const json = isObject(answer) ? answer : {};
  const links = isObject(json.socialLinks) ? json.socialLinks : {};
  const contact = isObject(json.contact) ? json.contact : {};
  const defaults = DEFAULT_SITE_SETTINGS;
  return {
    communityUrl: webAddress(json.communityUrl) ? json.communityUrl : defaults.communityUrl,
    socialLinks: Object.fromEntries(
      SOCIAL_IDS.map((id) => [id, links[id] === null ? null : webAddress(links[id]) ? links[id] : defaults.socialLinks[id]]),
    ) as SiteSettings['socialLinks'],
    contact: {
      name: textOrNull(contact.name) ?? defaults.contact.name,
      email: textOrNull(contact.email),
      phone: textOrNull(contact.phone),
      location: textOrNull(contact.location),
      hours: textOrNull(contact.hours),
    },
  };
}
