import { SOCIAL_IDS, type SiteSettings, type SocialId } from '#machines/site-settings.js';

/** The site's name; the coach's own links and contact details are site settings, edited in the admin. */
export const SITE = {
  name: 'Leadership Coaching',
  tagline: 'Executive & team leadership coaching',
} as const;

/** The four pages of the navigation bar. */
export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/services', label: 'Services' },
  { to: '/contact', label: 'Contact' },
] as const;

export type { SocialId } from '#machines/site-settings.js';

/** How the site presents each social platform; the addresses are the coach's, from the site settings. */
export const SOCIAL_PLATFORMS: Record<SocialId, { label: string; blurb: string }> = {
  video: { label: 'YouTube', blurb: 'Ten-minute talks on hard decisions, delegation and trust.' },
  professional: { label: 'LinkedIn', blurb: 'Weekly notes for executives and the people they lead.' },
  community: { label: 'Community', blurb: 'Free resources, live Q&As and peers working on the same things.' },
  x: { label: 'X', blurb: 'Short, practical prompts for the week ahead.' },
  facebook: { label: 'Facebook', blurb: 'Event announcements and workshop recordings.' },
  instagram: { label: 'Instagram', blurb: 'Behind the scenes of coaching work, in pictures.' },
  tiktok: { label: 'TikTok', blurb: 'One leadership habit in sixty seconds.' },
};

export interface SocialLink {
  id: SocialId;
  label: string;
  href: string;
  blurb: string;
}

/** The social links to show, in the site's order: the platforms the coach gave an address for. */
export function socialLinksOf(addresses: SiteSettings['socialLinks']): SocialLink[] {
  return SOCIAL_IDS.flatMap((id) => {
    const href = addresses[id];
    return href ? [{ id, href, ...SOCIAL_PLATFORMS[id] }] : [];
  });
}
