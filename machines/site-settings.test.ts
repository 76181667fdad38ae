import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SITE_SETTINGS,
  isPlatformHomePage,
  placeholderLinks,
  SOCIAL_IDS,
  siteSettingsFrom,
  type SiteSettings,
} from './site-settings.js';

const SAVED: SiteSettings = {
  communityUrl: 'https://community.example.com/leaders',
  socialLinks: { ...DEFAULT_SITE_SETTINGS.socialLinks, x: 'https://x.com/dana', tiktok: null },
  contact: { name: 'Dana Whitfield', email: 'dana@coach.example.com', phone: '+44 20 7946 0958', location: null, hours: 'Weekdays' },
};

describe('siteSettingsFrom', () => {
  it('reads the settings of a GET /api/config answer, beside its other fields', () => {
    expect(siteSettingsFrom({ paymentMode: 'test', bookingUrl: null, ...SAVED })).toEqual(SAVED);
  });

  it('gives the defaults for an answer without settings (an older server, or none at all)', () => {
    for (const answer of [undefined, null, 'oops', {}, { paymentMode: 'test' }])
      expect(siteSettingsFrom(answer)).toEqual(DEFAULT_SITE_SETTINGS);
  });

  it('replaces only the parts it cannot use, and never keeps a link that is not a web address', () => {
    const read = siteSettingsFrom({
      communityUrl: 'javascript:alert(1)',
      socialLinks: { ...SAVED.socialLinks, video: 'data:text/html,hi', facebook: 42 },
      contact: { name: '  ', email: 'dana@coach.example.com', phone: 7, location: '', hours: null },
    });
    expect(read.communityUrl).toBe(DEFAULT_SITE_SETTINGS.communityUrl);
    const { video, facebook } = DEFAULT_SITE_SETTINGS.socialLinks;
    expect(read.socialLinks).toEqual({ ...SAVED.socialLinks, video, facebook });
    expect(read.contact).toEqual({
      name: DEFAULT_SITE_SETTINGS.contact.name,
      email: 'dana@coach.example.com',
      phone: null,
      location: null,
      hours: null,
    });
  });

  it('defaults every platform, in the order the site shows them', () => {
    expect(Object.keys(DEFAULT_SITE_SETTINGS.socialLinks)).toEqual([...SOCIAL_IDS]);
    expect(Object.keys(siteSettingsFrom({}).socialLinks)).toEqual([...SOCIAL_IDS]);
  });
});

describe('placeholder links', () => {
  it("tells a platform's home page from the coach's own profile", () => {
    expect(isPlatformHomePage('https://www.linkedin.com/')).toBe(true);
    expect(isPlatformHomePage('https://x.com')).toBe(true);
    expect(isPlatformHomePage('https://www.skool.com/?ref=1')).toBe(true);
    expect(isPlatformHomePage('https://www.linkedin.com/in/dana')).toBe(false);
    expect(isPlatformHomePage('https://www.skool.com/leaders')).toBe(false);
  });

  it('lists the community link and every social link a fresh install points at a home page, and none once set or left blank', () => {
    expect(placeholderLinks(DEFAULT_SITE_SETTINGS)).toEqual(['communityUrl', ...SOCIAL_IDS]);
    const set: SiteSettings = {
      ...DEFAULT_SITE_SETTINGS,
      communityUrl: 'https://www.skool.com/leaders',
      socialLinks: { ...DEFAULT_SITE_SETTINGS.socialLinks, professional: 'https://www.linkedin.com/in/dana', x: null },
    };
    expect(placeholderLinks(set)).toEqual(SOCIAL_IDS.filter((id) => id !== 'professional' && id !== 'x'));
  });
});
