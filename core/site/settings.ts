import type pg from 'pg';
import { z } from 'zod';
import { SIMPLE_EMAIL } from '#machines/protocol/common.js';
import {
  DEFAULT_SCHEDULING_URL,
  DEFAULT_SITE_SETTINGS,
  SOCIAL_IDS,
  siteSettingsFrom,
  type SiteSettings,
  type SocialId,
} from '#machines/site-settings.js';
import type { SiteSettingsView } from '#machines/protocol/admin/site-settings.js';
import { bookingUrl, isAllowedUrl } from '../integrations/settings.js';

/** Links visitors' browsers follow: the same rule as the booking page's. */
const LINK_RULE = { test: isAllowedUrl, message: 'Expected an https:// address (http:// only for localhost).' };

/** An optional text: null (or blank, stored as null) when the coach leaves it out. */
function optional(max: number, rule?: { test: (value: string) => boolean; message: string }) {
  const text = z.string().trim().max(max, `At most ${max} characters.`);
  return (rule ? text.refine((value) => value === '' || rule.test(value), rule.message) : text).nullable();
}

const PHONE = /^\+?[0-9(][0-9 ().-]{4,28}[0-9]$/;

/**
 * The settings as the admin sends them and the site hands them out: every field is checked on its
 * own, so a 400 names each bad one and nothing is stored.
 */
export const siteSettingsSchema = z.strictObject({
  communityUrl: z.string().trim().max(2000).refine(LINK_RULE.test, LINK_RULE.message),
  /** A platform left blank is not shown. */
  socialLinks: z.strictObject(
    Object.fromEntries(SOCIAL_IDS.map((id) => [id, optional(2000, LINK_RULE)])) as Record<SocialId, ReturnType<typeof optional>>,
  ),
  contact: z.strictObject({
    name: z.string().trim().min(1, 'Enter the name visitors see.').max(100, 'At most 100 characters.'),
    email: optional(320, { test: (value) => SIMPLE_EMAIL.test(value), message: 'Please enter a valid email address' }),
    phone: optional(32, { test: (value) => PHONE.test(value), message: 'Expected a phone number: digits, spaces and + ( ) - . only.' }),
    location: optional(200),
    hours: optional(200),
  }),
}) satisfies z.ZodType<SiteSettings, unknown>;

type Db = pg.Pool | pg.ClientBase;

/** Blank optional texts and links are stored as null: one way to say "not set". */
function normalised(settings: SiteSettings): SiteSettings {
  const blankToNull = (value: string | null) => (value === '' ? null : value);
  return {
    communityUrl: settings.communityUrl,
    socialLinks: Object.fromEntries(SOCIAL_IDS.map((id) => [id, blankToNull(settings.socialLinks[id])])) as SiteSettings['socialLinks'],
    contact: {
      name: settings.contact.name,
      email: blankToNull(settings.contact.email),
      phone: blankToNull(settings.contact.phone),
      location: blankToNull(settings.contact.location),
      hours: blankToNull(settings.contact.hours),
    },
  };
}

interface StoredRow {
  settings: unknown;
  updated_at: Date;
}

/** The stored document as the site uses it: the defaults with no row, or for a document a hand edit left unusable. */
function settingsIn(row: StoredRow | undefined): SiteSettings {
  return storedSiteSettings(row?.settings ?? null);
}

/**
 * site_settings.settings (null with no row) as the site uses it, for a caller that read it in a
 * statement of its own with other things (core/email/lead-email-context.ts).
 */
export function storedSiteSettings(stored: unknown): SiteSettings {
  const parsed = stored !== null && stored !== undefined ? siteSettingsSchema.safeParse(siteSettingsFrom(stored)) : undefined;
  return parsed?.success ? normalised(parsed.data) : DEFAULT_SITE_SETTINGS;
}

async function storedRow(db: Db): Promise<StoredRow | undefined> {
  const found = await db.query<StoredRow>({ name: 'read-site-settings', text: 'SELECT settings, updated_at FROM site_settings' });
  return found.rows[0];
}

/** The settings now: read at every use (pages, emails), so a change applies at once in every process. */
export async function readSiteSettings(db: Db): Promise<SiteSettings> {
  return settingsIn(await storedRow(db));
}

async function view(db: pg.Pool, row: StoredRow | undefined): Promise<SiteSettingsView> {
  return {
    settings: settingsIn(row),
    updatedAt: row?.updated_at ?? null,
    booking: { url: await bookingUrl(db), fallbackUrl: DEFAULT_SCHEDULING_URL },
  };
}

export async function siteSettingsView(db: pg.Pool): Promise<SiteSettingsView> {
  return view(db, await storedRow(db));
}

/** Replaces the settings (already checked by siteSettingsSchema) as a whole. */
export async function saveSiteSettings(db: pg.Pool, settings: SiteSettings, userId: string): Promise<SiteSettingsView> {
  const saved = await db.query<StoredRow>(
    `INSERT INTO site_settings (id, settings, updated_by) VALUES (true, $1, $2)
     ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings, updated_by = EXCLUDED.updated_by
     RETURNING settings, updated_at`,
    [JSON.stringify(normalised(settings)), userId],
  );
  return view(db, saved.rows[0]);
}
