import { z } from 'zod';
import { SOCIAL_IDS, type SiteSettings, type SocialId } from '../../site-settings.js';
import { timestamp } from './common.js';

/**
 * The settings' shape as the server answers them. What a saved value may be (links, phone, the
 * contact's email) is checked on the way in by core/site/settings.ts.
 */
const storedSiteSettingsSchema = z.object({
  communityUrl: z.string(),
  socialLinks: z.object(
    Object.fromEntries(SOCIAL_IDS.map((id) => [id, z.string().nullable()])) as Record<SocialId, z.ZodNullable<z.ZodString>>,
  ),
  contact: z.object({
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    location: z.string().nullable(),
    hours: z.string().nullable(),
  }),
}) satisfies z.ZodType<SiteSettings, unknown>;

/** GET/PUT /api/admin/site-settings: the settings, when they were last saved, and the booking page they complement. */
export const siteSettingsViewSchema = z.object({
  settings: storedSiteSettingsSchema,
  /** Null while the defaults apply (never saved). */
  updatedAt: timestamp.nullable(),
  booking: z.object({
    /** The scheduling card's booking page (enabled and saved in Integrations), or null. */
    url: z.string().nullable(),
    /** Where the book-a-call step sends visitors while there is none. */
    fallbackUrl: z.string(),
  }),
});
export type SiteSettingsView = z.infer<typeof siteSettingsViewSchema>;
