import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { INTEGRATION_KEYS, type Integration, type IntegrationKey, type IntegrationUpdate } from '#machines/protocol/admin/integrations.js';
import { latestMarketingSync } from './marketing-contacts.js';
import { checkWebhookTarget, type OutboundPolicy, WebhookTargetError } from './outbound.js';

/** Cards whose value is a secret: write-only, read back masked. */
const SECRET_KEYS: ReadonlySet<IntegrationKey> = new Set(['automation', 'email_marketing', 'team_chat']);

/** Cards with a configuration field and what the field holds. */
const VALUE_KIND: Partial<Record<IntegrationKey, 'url' | 'apiKey'>> = {
  scheduling: 'url',
  automation: 'url',
  email_marketing: 'apiKey',
  team_chat: 'url',
};

interface SettingRow {
  key: IntegrationKey;
  enabled: boolean;
  configured: boolean;
  value: string | null;
  signing_secret: string | null;
  webhook_key: string | null;
  list_id: string | null;
  updated_at: Date;
}

const COLUMNS = 'key, enabled, configured, value, signing_secret, webhook_key, list_id, updated_at';

/** A secret shown back: bullets and its last 4 characters (or bullets alone when it is short). */
function mask(value: string): string {
  return value.length > 8 ? `••••••••${value.slice(-4)}` : '••••••••';
}

/** A link the visitor's browser follows (the booking page): https, or http for a loopback host. */
export function isAllowedUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function view(key: IntegrationKey, row: SettingRow | undefined, lastSync: Integration['lastSync'] = null): Integration {
  if (key === 'analytics') {
    return {
      key,
      enabled: true,
      configured: true,
      value: null,
      secret: false,
      signingSecret: null,
      webhookKey: null,
      listId: null,
      lastSync: null,
      updatedAt: row?.updated_at ?? null,
    };
  }
  const secret = SECRET_KEYS.has(key);
  const value = row?.value ?? null;
  return {
    key,
    enabled: row?.enabled ?? false,
    configured: row?.configured ?? false,
    value: value === null ? null : secret ? mask(value) : value,
    secret,
    signingSecret: key === 'automation' ? (row?.signing_secret ?? null) : null,
    webhookKey: row?.webhook_key ? mask(row.webhook_key) : null,
    listId: key === 'email_marketing' ? (row?.list_id ?? null) : null,
    lastSync: key === 'email_marketing' ? lastSync : null,
    updatedAt: row?.updated_at ?? null,
  };
}

/** Every card, in order; a card never saved reads as disabled and unconfigured. */
export async function listIntegrations(db: pg.Pool): Promise<Integration[]> {
  const rows = await db.query<SettingRow>(`SELECT ${COLUMNS} FROM integration_settings`);
  const byKey = new Map(rows.rows.map((row) => [row.key, row]));
  const lastSync = await latestMarketingSync(db);
  return INTEGRATION_KEYS.map((key) => view(key, byKey.get(key), lastSync));
}

/** A refused update, answered as 400 with its message. */
export class IntegrationInputError extends Error {}

/** A new automation signing secret: 32 random bytes, in the `whsec_` form receivers expect. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

/** The value a card may store, checked for its kind; webhook URLs only to public addresses (outbound.ts). */
async function checkedValue(key: IntegrationKey, value: string, policy: OutboundPolicy): Promise<string> {
  if (VALUE_KIND[key] === 'apiKey') return value;
  if (key === 'scheduling') {
    if (!isAllowedUrl(value)) throw new IntegrationInputError('Expected an https:// address (http:// only for localhost).');
    return value;
  }
  try {
    return await checkWebhookTarget(value, policy);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new IntegrationInputError(error.message);
    throw error;
  }
}

/**
 * Saves a card. An omitted value keeps the stored one (secrets are write-only, so the browser
 * never has them to send back); a blank value clears it and unmarks configured; a non-blank value
 * is checked for its kind and marks the card configured. A new automation URL gets a new signing
 * secret: whoever held the old URL's secret must not be able to sign for the new receiver.
 */
export async function saveIntegration(
  db: pg.Pool,
  key: IntegrationKey,
  update: IntegrationUpdate,
  userId: string,
  policy: OutboundPolicy,
): Promise<Integration> {
  if (key === 'analytics') throw new IntegrationInputError('Analytics is built in and always active; it has nothing to change.');
  let value: string | null | undefined;
  if (update.value !== undefined) {
    if (!VALUE_KIND[key]) throw new IntegrationInputError(`The ${key} integration has no configuration value.`);
    const trimmed = update.value.trim();
    value = trimmed === '' ? null : await checkedValue(key, trimmed, policy);
  }
  if (update.webhookKey !== undefined && key !== 'scheduling') {
    throw new IntegrationInputError(`The ${key} integration has no webhook signing key.`);
  }
  if (update.listId !== undefined && key !== 'email_marketing') {
    throw new IntegrationInputError(`The ${key} integration has no list.`);
  }
  const signingSecret = key === 'automation' && value ? newSigningSecret() : null;
  const saved = await db.query<SettingRow>(
    `INSERT INTO integration_settings AS s (key, enabled, configured, value, signing_secret, updated_by, webhook_key, list_id)
     VALUES ($1, coalesce($2, false), $5 AND $3::text IS NOT NULL, $3, $4, $6, nullif($7, ''), nullif($8, ''))
     ON CONFLICT (key) DO UPDATE SET
       enabled = coalesce($2, s.enabled),
       value = CASE WHEN $5 THEN $3 ELSE s.value END,
       configured = CASE WHEN $5 THEN $3::text IS NOT NULL ELSE s.configured END,
       signing_secret = CASE WHEN $4::text IS NOT NULL AND s.value IS DISTINCT FROM $3 THEN $4 ELSE s.signing_secret END,
       webhook_key = CASE WHEN $7::text IS NULL THEN s.webhook_key ELSE nullif($7, '') END,
       list_id = CASE WHEN $8::text IS NULL THEN s.list_id ELSE nullif($8, '') END,
       updated_by = $6
     RETURNING ${COLUMNS}`,
    [
      key,
      update.enabled ?? null,
      value ?? null,
      signingSecret,
      value !== undefined,
      userId,
      update.webhookKey ?? null,
      update.listId ?? null,
    ],
  );
  return view(key, saved.rows[0], key === 'email_marketing' ? await latestMarketingSync(db) : null);
}

/** Replaces the automation card's signing secret (the old one stops verifying at once); null when no URL is saved. */
export async function rotateSigningSecret(db: pg.Pool, userId: string): Promise<Integration | null> {
  const rotated = await db.query<SettingRow>(
    `UPDATE integration_settings SET signing_secret = $1, updated_by = $2
     WHERE key = 'automation' AND value IS NOT NULL
     RETURNING ${COLUMNS}`,
    [newSigningSecret(), userId],
  );
  return rotated.rows[0] ? view('automation', rotated.rows[0]) : null;
}

/**
 * The outbound cards that are on, with their values, read inside the caller's transaction in one
 * statement: the automation and team-chat webhooks, and the email-marketing list once its list is
 * chosen (its value is the API key), so an event's every outbound job is decided by one read.
 */
export async function activeTargets(db: pg.ClientBase): Promise<Map<IntegrationKey, { value: string; signingSecret: string | null }>> {
  const rows = await db.query<SettingRow>({
    name: 'active-outbound-targets',
    text: `SELECT key, value, signing_secret FROM integration_settings
           WHERE enabled AND configured AND (key IN ('automation', 'team_chat') OR (key = 'email_marketing' AND list_id IS NOT NULL))`,
  });
  return new Map(rows.rows.map((row) => [row.key, { value: row.value!, signingSecret: row.signing_secret }]));
}

/** The booking page the coach set in the scheduling card (a web address only), or null while it is off or empty. */
export async function bookingUrl(db: Pick<pg.Pool, 'query'>): Promise<string | null> {
  const scheduling = await db.query<{ value: string }>(
    "SELECT value FROM integration_settings WHERE key = 'scheduling' AND enabled AND configured",
  );
  const value = scheduling.rows[0]?.value ?? null;
  return value && /^https?:\/\//.test(value) ? value : null;
}

/** The scheduling provider's webhook signing key, or null while none is saved (the webhook then refuses every event). */
export async function schedulingWebhookKey(db: Pick<pg.Pool, 'query'>): Promise<string | null> {
  const found = await db.query<{ webhook_key: string | null }>("SELECT webhook_key FROM integration_settings WHERE key = 'scheduling'");
  return found.rows[0]?.webhook_key ?? null;
}

/** The email-marketing card's key and list while it is on with both set; null otherwise (nothing is synced). */
export async function marketingTarget(db: Pick<pg.Pool, 'query'>): Promise<{ apiKey: string; listId: number } | null> {
  const found = await db.query<{ value: string; list_id: string }>({
    name: 'marketing-target',
    text: "SELECT value, list_id FROM integration_settings WHERE key = 'email_marketing' AND enabled AND configured AND list_id IS NOT NULL",
  });
  const row = found.rows[0];
  return row ? { apiKey: row.value, listId: Number(row.list_id) } : null;
}

/** The email-marketing card's saved API key, on or off (for its "Test connection"); null when none is saved. */
export async function marketingApiKey(db: Pick<pg.Pool, 'query'>): Promise<string | null> {
  const found = await db.query<{ value: string }>("SELECT value FROM integration_settings WHERE key = 'email_marketing' AND configured");
  return found.rows[0]?.value ?? null;
}
