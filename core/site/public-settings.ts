import type pg from 'pg';
import type { SiteSettings } from '#machines/site-settings.js';
import { ChannelListener } from '../db/channel-listener.js';
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
 * The settings visitors see, kept in memory while a LISTEN connection hears every change (the
 * tables' triggers announce each one on commit, whoever writes it), and read again after one. While
 * nothing listens (PostgreSQL away, the connection being made again) every read goes to the
 * database, as it did before the cache: a change is never missed, only the memory is given up.
 */
export class PublicSettings {
  private kept: Promise<PublicSettingsValue> | null = null;
  private readonly listener: ChannelListener;

  constructor(
    private readonly pool: pg.Pool,
    log: { warn: (object: object, message: string) => void },
  ) {
    const forget = () => {
      this.kept = null;
    };
    this.listener = new ChannelListener(pool, PUBLIC_SETTINGS_CHANNEL, { onNotify: forget, onRelisten: forget, log });
  }

  /** Starts listening, now or once PostgreSQL is back. */
  start(): void {
    this.listener.startSoon();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  /** The settings: from memory, or read (and kept, when a change would be heard meanwhile). */
  read(): Promise<PublicSettingsValue> {
    // what was kept is good only while every change is still heard
    if (this.kept && this.listener.listening) return this.kept;
    this.kept = null;
    const reading = Promise.all([readSiteSettings(this.pool), bookingUrl(this.pool)]).then(([site, booking]) => ({
      site,
      bookingUrl: booking,
    }));
    // kept before it resolves, so a notice arriving during the read forgets it too
    if (this.listener.listening) {
      this.kept = reading;
      reading.catch(() => {
        if (this.kept === reading) this.kept = null;
      });
    }
    return reading;
  }
}
