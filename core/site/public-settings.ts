import type pg from 'pg';
import type { SiteSettings } from '#machines/site-settings.js';
import type { ChannelListener } from '../db/channel-listener.js';
import { bookingUrl } from '../integrations/settings.js';
import { readSiteSettings } from './settings.js';

/** Where a change to the site or integration settings is announced (a trigger on each table). */
const PUBLIC_SETTINGS_CHANNEL = 'hf_public_settings';

/** What visitors' pages and GET /api/config are drawn with. */
export interface PublicSettingsValue {
  site: SiteSettings;
  bookingUrl: string | null;
}

/**
 * The settings visitors see, kept in memory while the server's listener hears every change (the
 * tables' triggers announce each one on commit, whoever writes it), and read again after one. While
 * nothing listens (PostgreSQL away, the connection being made again) every read goes to the
 * database: a change is never missed, only the memory is given up.
 */
export class PublicSettings {
  private kept: Promise<PublicSettingsValue> | null = null;

  /** Registers its channel on the server's `notices` listener, which its owner starts and stops. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly notices: ChannelListener,
  ) {
    notices.on(PUBLIC_SETTINGS_CHANNEL, { onNotify: () => this.forget(), onRelisten: () => this.forget() });
  }

  /**
   * Drops what is kept, for a save made through this server: its next read sees the save at once
   * rather than a moment later, when the announcement arrives.
   */
  forget(): void {
    this.kept = null;
  }

  /** The settings: from memory, or read (and kept, when a change would be heard meanwhile). */
  read(): Promise<PublicSettingsValue> {
    // what was kept is good only while every change is still heard
    if (this.kept && this.notices.listening) return this.kept;
    this.kept = null;
    const reading = Promise.all([readSiteSettings(this.pool), bookingUrl(this.pool)]).then(([site, booking]) => ({
      site,
      bookingUrl: booking,
    }));
    // kept before it resolves, so a notice arriving during the read forgets it too
    if (this.notices.listening) {
      this.kept = reading;
      reading.catch(() => {
        if (this.kept === reading) this.kept = null;
      });
    }
    return reading;
  }
}
