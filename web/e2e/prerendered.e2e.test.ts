import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES, UNINDEXED_PAGES, type PrerenderedPage } from '#machines/protocol/pages.js';
import { DEFAULT_SITE_SETTINGS } from '#machines/site-settings.js';
import { launchBrowser } from './browser.js';
import { DESKTOP, MOBILE, openPage } from './pages.js';
import { startTestServer, WEB_ROOT, type TestServer } from './server.js';
import { until } from '#test/until.js';
import { buildTestApp } from '#test/test-app.js';

/*
 * The public pages as crawlers and link previews get them (raw HTML, no script run) and as a
 * browser without JavaScript shows them; then hydrated by the site's code, on the visitor's
 * intent, without a warning and without losing a click or a keystroke made before.
 */

/** Each public page's heading and a sentence of its main text, as the build rendered them. */
const PAGES: Record<(typeof PRERENDERED_PAGES)[number], { heading: string; text: RegExp }> = {
  '/': { heading: 'Lead with clarity when the stakes are highest.', text: /Start with a free leadership diagnostic/ },
  '/about': { heading: 'Coaching from someone who has sat in the chair.', text: /diagnostic/i },
  '/services': { heading: 'Coaching that meets you where the pressure is.', text: /1:1 Leadership Coaching/ },
  '/contact': { heading: 'Let&#x27;s talk about what you&#x27;re leading.', text: /<form/ },
  '/payment-success': { heading: 'Payment Successful', text: /deposit/i },
  '/payment-canceled': { heading: 'Checkout canceled', text: /charged|canceled/i },
};

const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1] ?? null;

/** Holds the site's code (web/src/app/start.tsx's chunk) back from `page` until the answered function is called. */
async function holdSiteCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Whether React runs the page: it has attached to the rendered root. */
const isLive = () => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer'));

describe('public pages rendered by the server, hydrated on intent', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // a rate-limit prefix of its own: its contact messages count against this server's limit only
    server = await startTestServer({ privatePrefix: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(Object.entries(PAGES))(
    '%s arrives as HTML with its heading, text, title, description, canonical and preview card',
    async (page, expected) => {
      const response = await fetch(`${server.url}${page}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const root = html.slice(html.indexOf('<div id="root">'));
      expect(attribute(root, /<h1[^>]*>([^<]*)<\/h1>/)).toBe(expected.heading);
      expect(root).toMatch(expected.text);
      expect(attribute(html, /<title>([^<]+)<\/title>/)).toMatch(/ \| Leadership Coaching$|^Leadership Coaching \| /);
      expect(html.match(/<title>/g)).toHaveLength(1);
      expect(attribute(html, /<meta name="description" content="([^"]{50,})"/)).not.toBeNull();
      expect(html.match(/<meta name="description"/g)).toHaveLength(1);
      const url = `${server.config.publicUrl}${page}`;
      expect(attribute(html, /<link rel="canonical" href="([^"]+)"/)).toBe(url);
      expect(attribute(html, /<meta property="og:url" content="([^"]+)"/)).toBe(url);
      expect(attribute(html, /<meta property="og:image" content="([^"]+)"/)).toBe(`${server.config.publicUrl}/og-image.png`);
      expect(attribute(html, /<meta name="twitter:card" content="([^"]+)"/)).toBe('summary_large_image');
      // the preview image is described for both cards
      const alt = attribute(html, /<meta property="og:image:alt" content="([^"]+)"/);
      expect(alt).not.toBeNull();
      expect(attribute(html, /<meta name="twitter:image:alt" content="([^"]+)"/)).toBe(alt);
      expect(html).not.toContain('%HF_PUBLIC_URL%');
      expect(html.includes('<meta name="robots" content="noindex" />')).toBe(UNINDEXED_PAGES.has(page as PrerenderedPage));
      // every link of the page is there before any script runs
      expect(root).toMatch(/<a [^>]*href="\/about"/);
      expect(root).toMatch(/<a [^>]*href="\/services"/);
    },
  );

  it('describes the business on the home page and the services on theirs, as structured data', async () => {
    const blocks = async (page: string) =>
      [...(await (await fetch(`${server.url}${page}`)).text()).matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
        (match) => JSON.parse(match[1]!) as Record<string, unknown>,
      );
    expect(await blocks('/')).toEqual([expect.objectContaining({ '@type': 'ProfessionalService', url: `${server.config.publicUrl}/` })]);
    // only what schema.org gives a ProfessionalService (page-meta.ts is typed with schema-dts); no profiles until the coach sets them
    const [business] = await blocks('/');
    expect(business).not.toHaveProperty('serviceType');
    expect(business).not.toHaveProperty('sameAs');
    const [services] = await blocks('/services');
    expect(services).toMatchObject({ '@type': 'ItemList' });
    expect((services!.itemListElement as unknown[]).length).toBeGreaterThanOrEqual(3);
  });

  it("keeps the pages opened from an email's token link out of search results", async () => {
    for (const path of ['/resume?token=abc', '/unsubscribe?token=abc', '/confirm?token=abc']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('x-robots-tag'), path).toBe('noindex');
    }
    expect((await fetch(`${server.url}/about`)).headers.get('x-robots-tag')).toBeNull();
    // and the page itself says so once it runs
    const { context, page } = await openPage(browser, DESKTOP);
    await page.goto(`${server.url}/unsubscribe?token=abc`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('head meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await context.close();
  });

  it('answers an unknown path with 404 and the rendered not-found page, kept out of search results', async () => {
    const response = await fetch(`${server.url}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(attribute(html, /<h1[^>]*>([^<]*)<\/h1>/)).toBe('Oops! Page not found');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(attribute(html, /<meta name="description" content="([^"]{50,})"/)).not.toBeNull();
    // the admin area draws its own screens, not-found included, from the empty shell
    for (const [path, status] of [
      ['/admin/settings', 200],
      ['/admin/no-such-screen', 404],
    ] as const) {
      const admin = await fetch(`${server.url}${path}`);
      expect(admin.status, path).toBe(status);
      expect(await admin.text(), path).toContain('<div id="root"></div>');
    }
  });

  it('lists every public page for search results in sitemap.xml (not the payment pages) and keeps crawlers out of the admin and the API', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual(
      PRERENDERED_PAGES.filter((page) => !UNINDEXED_PAGES.has(page)).map((page) => `${server.config.publicUrl}${page}`),
    );
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    expect(robots).toMatch(/^Disallow: \/api\/$/m);
    expect(robots).toContain(`Sitemap: ${server.config.publicUrl}/sitemap.xml`);
  });

  it('reads completely with JavaScript off: heading, text and links', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/services`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(PAGES['/services'].heading);
    expect(await page.getByRole('link', { name: 'About' }).first().getAttribute('href')).toBe('/about');
    await page.getByRole('link', { name: 'About' }).first().click();
    await page.waitForURL(`${server.url}/about`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(PAGES['/about'].heading);
    await context.close();
  });

  it.each(Object.keys(PAGES))(
    '%s loads one small script, fetches the rest when idle, hydrates on intent without a warning and then runs as the app',
    async (path) => {
      const { context, page, problems } = await openPage(browser, DESKTOP);
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
      });
      const scripts: string[] = [];
      let loaded = false;
      page.on('load', () => (loaded = true));
      page.on('request', (request) => request.resourceType() === 'script' && !loaded && scripts.push(new URL(request.url()).pathname));
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      // read, not run: only the first script (and the two pieces it shares with the site's code) came
      // before the load event, the rest while idle (decision 0039), and React is not on the page
      expect(scripts.map((script) => script.replace(/-[\w-]+\.js$/, ''))).toEqual(['/assets/index', '/assets/api', '/assets/opening']);
      expect(await page.evaluate(isLive)).toBe(false);
      // the visitor points at a link: the site's code comes and hydrates the page
      await page.getByRole('link', { name: 'About' }).first().hover();
      await page.waitForFunction(isLive);
      await page.waitForLoadState('networkidle');
      expect(warnings.filter((text) => /hydrat|did not match|server rendered/i.test(text))).toEqual([]);
      expect(problems.errors).toEqual([]);
      // the app runs: a click on a nav link navigates without a page load
      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      await page.getByRole('link', { name: 'Services' }).first().click();
      await page.waitForURL(`${server.url}/services`);
      await page.getByRole('heading', { level: 1, name: PAGES['/services'].heading }).waitFor();
      expect(loads).toEqual([]);
      await context.close();
    },
  );

  it('serves the pages last drawn while PostgreSQL refuses connections, and draws them anew once it answers', async () => {
    const own = await buildTestApp({ listen: true, webRoot: WEB_ROOT, ownDatabase: true, logLevel: 'warn' });
    const database = new URL(own.config.DATABASE_URL!).pathname.slice(1);
    const refuse = async (refused: boolean) => {
      await server.pool.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${refused ? 'false' : 'true'}`);
      if (refused) await server.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
    };
    try {
      expect(await (await fetch(`${own.url}/contact`)).text()).not.toContain('mailto:');
      await refuse(true);
      // every answer is the page: from the settings kept in memory until the server hears its LISTEN
      // connection is gone, then read from PostgreSQL, which refuses, so the pages last drawn serve
      await until(async () => {
        const during = await fetch(`${own.url}/contact`);
        expect(during.status).toBe(200);
        expect(attribute(await during.text(), /<h1[^>]*>([^<]*)<\/h1>/)).toBe(PAGES['/contact'].heading);
        return own.logs.some((line) => line.msg === 'site settings unreadable: serving the pages last rendered');
      }, 5_000);

      await refuse(false);
      const contact = { ...DEFAULT_SITE_SETTINGS.contact, email: 'back@coach.example' };
      await own.pool.query('INSERT INTO site_settings (id, settings) VALUES (true, $1)', [
        JSON.stringify({ ...DEFAULT_SITE_SETTINGS, contact }),
      ]);
      // the change is announced once the LISTEN connection is back, or read while it is not
      await until(async () => (await (await fetch(`${own.url}/contact`)).text()).includes('href="mailto:back@coach.example"'), 5_000);
    } finally {
      await refuse(false);
      await own.close();
    }
  });

  it('starts the site code at once for a browser that may be signed in (a session cookie), so the bar shows the account', async () => {
    const visitor = await (await fetch(`${server.url}/about`)).text();
    expect(visitor).toContain('<div id="root">');
    const coach = await (await fetch(`${server.url}/about`, { headers: { cookie: 'hf_session=whatever' } })).text();
    expect(coach).toContain('<div id="root" data-start="now">');
  });

  it('opens the assessment for a click that came before the page was live', async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    expect(await page.evaluate(isLive)).toBe(false);
    await page.getByRole('button', { name: 'Take the Free Assessment' }).first().click();
    await page.getByRole('dialog').locator('h2').first().waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('opens the mobile menu for a press the page came to life in the middle of', async () => {
    const { context, page, problems } = await openPage(browser, MOBILE);
    const release = await holdSiteCode(page);
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const box = (await page.getByRole('button', { name: 'Open menu' }).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // the page goes live, and draws its real menu button in place of the one pressed, before the
    // finger lifts: the browser's click then lands on neither button
    release();
    await page.waitForFunction(isLive);
    await page.locator('header button[id^="headlessui-disclosure-button"]').waitFor();
    await page.mouse.up();
    await page.getByRole('button', { name: 'Close menu' }).waitFor({ timeout: 5_000 });
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('stops holding clicks only once the real menu has replaced its stand-in, so no press straddles the swap', async () => {
    const { context, page, problems } = await openPage(browser, MOBILE);
    // the page's own record, in order: the stand-in menu button leaving the bar, and the page
    // ceasing to hold clicks (its capturing click listener on the document removed)
    await page.addInitScript(() => {
      const order: string[] = [];
      Object.assign(window, { order });
      const prototype = EventTarget.prototype;
      const remove: typeof prototype.removeEventListener = Reflect.get(prototype, 'removeEventListener');
      prototype.removeEventListener = function (this: EventTarget, type: string, listener, options) {
        if (this === document && type === 'click' && options === true) order.push('clicks no longer held');
        return remove.call(this, type, listener, options);
      };
      document.addEventListener('DOMContentLoaded', () => {
        const standIn = document.querySelector('header nav > button');
        new MutationObserver(() => {
          if (standIn && !standIn.isConnected && !order.includes('stand-in replaced')) order.push('stand-in replaced');
        }).observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Open menu' }).hover();
    await page.locator('header button[id^="headlessui-disclosure-button"]').waitFor();
    const order = () => page.evaluate(() => (window as unknown as { order: string[] }).order);
    await expect.poll(order).toHaveLength(2);
    expect(await order()).toEqual(['stand-in replaced', 'clicks no longer held']);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('keeps what was typed and sends the form submitted while the site code was still on its way', async () => {
    const { context, page, problems } = await openPage(browser, DESKTOP);
    // the site's code is held back until the visitor has typed and pressed Send
    const release = await holdSiteCode(page);
    // loaded, not idle: the site's code, fetched when the page is idle, is held
    await page.goto(`${server.url}/contact`, { waitUntil: 'load' });
    const email = `early-${Date.now()}@example.com`;
    await page.getByLabel('Name').fill('Early Typist');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Message').fill('Typed before the page was live.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect(await page.evaluate(isLive)).toBe(false);
    release();
    await expect
      .poll(async () => (await server.pool.query('SELECT name, message FROM contact_submissions WHERE email = $1', [email])).rows, {
        timeout: 15_000,
      })
      .toEqual([{ name: 'Early Typist', message: 'Typed before the page was live.' }]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('keeps every field typed while a slow phone brings the page to life, and sends them all', async () => {
    // a phone four times slower than this machine: the page takes a while to hydrate, and the
    // visitor goes on filling in the form meanwhile; whether a field's text lands while React is
    // hydrating, or just after, varies from load to load, so four visitors each send one (with the
    // early typist above, the five messages this server's contact limit allows one client)
    const sent: Array<{ name: string; company: string; message: string }> = [];
    for (const visitor of [1, 2, 3, 4]) {
      const { context, page, problems } = await openPage(browser, MOBILE);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // the site's code, preloaded while the page is idle, is held until the first field is typed,
      // so the visitor starts typing before the page is live and goes on while it hydrates
      const release = await holdSiteCode(page);
      await page.goto(`${server.url}/contact`);
      const email = `slow-phone-${visitor}-${Date.now()}@example.com`;
      await page.getByLabel('Name').fill(`Slow Phone ${visitor}`);
      expect(await page.evaluate(isLive)).toBe(false);
      release();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Company/Organization').fill('Field Office');
      await page.getByLabel('Message').fill('Typed while the page came alive.');
      await page.getByRole('button', { name: 'Send Message' }).click();
      const stored = async () =>
        (await server.pool.query('SELECT name, company, message FROM contact_submissions WHERE email = $1', [email])).rows;
      // a form that never sends shows as a missing row below, beside the others
      await until(async () => (await stored()).length > 0).catch(() => {});
      sent.push(...(await stored()));
      expect(problems.errors).toEqual([]);
      await context.close();
    }
    expect(sent).toEqual(
      [1, 2, 3, 4].map((visitor) => ({
        name: `Slow Phone ${visitor}`,
        company: 'Field Office',
        message: 'Typed while the page came alive.',
      })),
    );
  });

  it("draws the coach's saved contact details into the HTML, and the page hydrates with them without asking again", async () => {
    const contact = { name: 'Dana Whitfield', email: 'dana@coach.example', phone: '+44 20 7946 0958', location: 'London, UK', hours: null };
    await server.pool.query(
      `INSERT INTO site_settings (id, settings) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET settings = EXCLUDED.settings`,
      [
        JSON.stringify({
          ...DEFAULT_SITE_SETTINGS,
          contact,
          // one profile set; the others still a platform's home page, left out of sameAs
          socialLinks: { ...DEFAULT_SITE_SETTINGS.socialLinks, professional: 'https://www.linkedin.com/in/dana-whitfield' },
        }),
      ],
    );
    try {
      // the server hears the write from the table's trigger a moment after it commits
      await until(async () => (await (await fetch(`${server.url}/contact`)).text()).includes('href="mailto:dana@coach.example"'));
      const home = await (await fetch(`${server.url}/`)).text();
      const [business] = [...home.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((match) => JSON.parse(match[1]!));
      expect(business.sameAs).toEqual(['https://www.linkedin.com/in/dana-whitfield']);
      expect(business).toMatchObject({
        name: 'Dana Whitfield',
        email: 'dana@coach.example',
        telephone: '+44 20 7946 0958',
        address: 'London, UK',
      });

      const { context, page, problems } = await openPage(browser, DESKTOP);
      const configRequests: string[] = [];
      page.on('request', (request) => request.url().includes('/api/config') && configRequests.push(request.url()));
      await page.goto(`${server.url}/contact`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'dana@coach.example' }).hover();
      await page.waitForFunction(isLive);
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('link', { name: 'dana@coach.example' }).count()).toBe(1);
      expect(configRequests).toEqual([]);
      expect(problems.errors).toEqual([]);
      await context.close();
    } finally {
      await server.pool.query('DELETE FROM site_settings');
    }
  });
});
