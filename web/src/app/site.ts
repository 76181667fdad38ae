/** Site-wide names and links, in one place for the coach to edit. */
export const SITE = {
  name: 'Leadership Coaching',
  tagline: 'Executive & team leadership coaching',
} as const;

/** The four pages of the navigation bar (spec section 2). */
export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/services', label: 'Services' },
  { to: '/contact', label: 'Contact' },
] as const;

export type SocialId = 'video' | 'professional' | 'community' | 'x' | 'facebook' | 'instagram' | 'tiktok';

/**
 * The seven social links of spec section 2, in its order. The addresses are the platforms' front
 * pages until the coach's own profile addresses are set here.
 */
export const SOCIAL_LINKS: ReadonlyArray<{ id: SocialId; label: string; href: string; blurb: string }> = [
  { id: 'video', label: 'YouTube', href: 'https://www.youtube.com/', blurb: 'Ten-minute talks on hard decisions, delegation and trust.' },
  { id: 'professional', label: 'LinkedIn', href: 'https://www.linkedin.com/', blurb: 'Weekly notes for executives and the people they lead.' },
  { id: 'community', label: 'Community', href: 'https://www.skool.com/', blurb: 'Free resources, live Q&As and peers working on the same things.' },
  { id: 'x', label: 'X', href: 'https://x.com/', blurb: 'Short, practical prompts for the week ahead.' },
  { id: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/', blurb: 'Event announcements and workshop recordings.' },
  { id: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/', blurb: 'Behind the scenes of coaching work, in pictures.' },
  { id: 'tiktok', label: 'TikTok', href: 'https://www.tiktok.com/', blurb: 'One leadership habit in sixty seconds.' },
];
