import { useEffect, useState } from 'react';
import { SOCIAL_IDS, type SiteSettings } from '#machines/site-settings.js';
import type { PublicConfig } from '#web/lib/flows/client.js';
import { sharedFlowClient } from '#web/lib/flows/use-server-flow.js';
import { publishSiteSettings } from '#web/lib/site-settings.js';

/** The site settings inside the public configuration. */
const siteSettingsOf = ({ communityUrl, socialLinks, contact }: PublicConfig): SiteSettings => ({
  communityUrl,
  socialLinks: Object.fromEntries(SOCIAL_IDS.map((id) => [id, socialLinks[id]])) as SiteSettings['socialLinks'],
  contact,
});

/**
 * The server's public configuration (payment mode, deposit, booking url, site settings); null
 * until it answers, and if it never does. Read again at each step (`step`), so a modal left open
 * while the coach changes a setting shows the new one at the step that needs it (the booking page
 * after paying, the community link); the site settings it brings are published to the whole tab.
 */
export function usePublicConfig(step: string): PublicConfig | null {
  const client = sharedFlowClient();
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    client.config().then(
      (answer) => {
        if (!live) return;
        setConfig(answer);
        publishSiteSettings(siteSettingsOf(answer));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, step]);
  return config;
}
