import type pg from 'pg';
import type { Config } from '../config/index.js';
import {
  REMINDER_KINDS,
  type ReminderKind,
  type ReminderSetting,
  type ReminderSettings,
  type ReminderSettingsView,
} from '#machines/protocol/admin/emails.js';

// The one writer of reminder_settings (core/db/table-owners.ts; decision 0049).

type Db = pg.Pool | pg.ClientBase;

/** The configured default of each reminder's delay, used while the coach has saved none. */
export type ReminderDefaults = Pick<Config, 'BOOKING_REMINDER_HOURS' | 'ASSESSMENT_REMINDER_HOURS'>;

interface StoredRow {
  kind: ReminderKind;
  enabled: boolean;
  delay_hours: string;
  updated_at: Date;
}

async function storedRows(db: Db): Promise<StoredRow[]> {
  const found = await db.query<StoredRow>({
    name: 'reminder-settings',
    text: 'SELECT kind, enabled, delay_hours, updated_at FROM reminder_settings',
  });
  return found.rows;
}

/** A reminder as stored, or null while the coach has saved none (the flow's own configured delay applies, and it is on). */
export async function savedReminderSetting(db: Db, kind: ReminderKind): Promise<ReminderSetting | null> {
  const row = (await storedRows(db)).find((stored) => stored.kind === kind);
  return row ? { enabled: row.enabled, delayHours: Number(row.delay_hours) } : null;
}

/** Both reminders as they apply now: saved, else on with the server's configured delay. */
export async function reminderSettingsView(db: Db, defaults: ReminderDefaults): Promise<ReminderSettingsView> {
  const rows = await storedRows(db);
  const fallback: ReminderSettings = {
    booking_reminder: { enabled: true, delayHours: defaults.BOOKING_REMINDER_HOURS },
    assessment_reminder: { enabled: true, delayHours: defaults.ASSESSMENT_REMINDER_HOURS },
  };
  const settings = Object.fromEntries(
    REMINDER_KINDS.map((kind) => {
      const row = rows.find((stored) => stored.kind === kind);
      return [kind, row ? { enabled: row.enabled, delayHours: Number(row.delay_hours) } : fallback[kind]];
    }),
  ) as ReminderSettings;
  const saved = rows.map((row) => row.updated_at.getTime());
  return { settings, updatedAt: saved.length ? new Date(Math.max(...saved)) : null };
}

/** Saves both reminders (checked by reminderSettingsSchema); timers set from now on use them. */
export async function saveReminderSettings(
  db: pg.Pool,
  settings: ReminderSettings,
  userId: string,
  defaults: ReminderDefaults,
): Promise<ReminderSettingsView> {
  await db.query(
    `INSERT INTO reminder_settings (kind, enabled, delay_hours, updated_by)
     SELECT * FROM unnest($1::text[], $2::boolean[], $3::numeric[], $4::uuid[])
     ON CONFLICT (kind) DO UPDATE SET enabled = EXCLUDED.enabled, delay_hours = EXCLUDED.delay_hours, updated_by = EXCLUDED.updated_by`,
    [
      [...REMINDER_KINDS],
      REMINDER_KINDS.map((kind) => settings[kind].enabled),
      REMINDER_KINDS.map((kind) => settings[kind].delayHours),
      REMINDER_KINDS.map(() => userId),
    ],
  );
  return reminderSettingsView(db, defaults);
}
