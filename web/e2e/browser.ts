import { chromium, type Browser } from 'playwright-core';

/** Flags for Debian's chromium on a machine with a closed network and no display (also bench:web's). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Launches Debian's chromium (CHROMIUM_PATH overrides the location). Playwright turns the
 * back/forward cache off; `backForwardCache` keeps it on, as a visitor's browser has it. `args`
 * adds flags, e.g. `--host-resolver-rules` to reach loopback under another name.
 */
export function launchBrowser(options: { backForwardCache?: boolean; args?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, ...(options.args ?? [])],
    ignoreDefaultArgs: options.backForwardCache ? ['--disable-back-forward-cache'] : undefined,
  });
}
