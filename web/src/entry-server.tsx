import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import type { ContactFormOutcome } from '#machines/protocol/contact-form.js';
import type { PrerenderedPage } from '#machines/protocol/pages.js';
import type { SiteSettings } from '#machines/site-settings.js';
import { earlyCaptureMarkup } from './features/assessment/early-capture-markup.js';
import { headTags, scriptJson } from './app/page-meta.js';
import { routes } from './app/routes.js';
import { CONTACT_OUTCOME_ELEMENT, RenderedContactOutcome } from './lib/contact-outcome.js';
import { RenderedSiteSettings, SITE_SETTINGS_ELEMENT } from './lib/site-settings.js';

/** The title, meta and link tags React hoists to the front of a render, which belong in <head>. */
const HOISTED = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)+/;

/** Text as React escaped it, back to itself (headTags escapes it again for its attributes). */
const decodeText = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#x27);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" })[name]!);

/**
 * One public page as a whole document: the built shell (`shell`, web/dist/index.html, which links
 * the page's scripts and styles) with the page rendered into it as the browser's first render will
 * draw it, its head tags, and the settings it was drawn with for the browser to hydrate from.
 * `page` null renders the not-found page. The server calls this (server/plugins/rendered-pages.ts)
 * at start and whenever the coach's site settings change; the pages have no loaders, so nothing
 * else is fetched. `contact` draws the contact page as the answer to a form posted without
 * JavaScript (server/routes/contact-form.ts), carrying the outcome for the browser to hydrate from.
 */
export async function renderPage(
  shell: string,
  page: PrerenderedPage | null,
  settings: SiteSettings,
  contact?: ContactFormOutcome,
): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://prerender.invalid${page ?? '/this-page-does-not-exist'}`));
  if (context instanceof Response) throw new Error(`${page} answered a redirect while rendering`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // prerender, not renderToString: it waits for what is loaded lazily (the mobile menu), so the
  // page is whole rather than a fallback the browser must render again
  const { prelude } = await prerender(
    <StrictMode>
      <RenderedSiteSettings value={settings}>
        <RenderedContactOutcome value={contact ?? null}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </RenderedContactOutcome>
      </RenderedSiteSettings>
    </StrictMode>,
  );
  const html = await new Response(prelude).text();
  const hoisted = HOISTED.exec(html)?.[0] ?? '';
  const title = decodeText(/<title>([^<]*)<\/title>/.exec(hoisted)?.[1] ?? '');
  const settingsScript =
    `<script type="application/json" id="${SITE_SETTINGS_ELEMENT}">${scriptJson(settings)}</script>` +
    (contact ? `\n    <script type="application/json" id="${CONTACT_OUTCOME_ELEMENT}">${scriptJson(contact)}</script>` : '');
  // functions as replacements: a "$" in the page's text is not a replacement pattern
  return shell
    .replace(/<meta\s+name="description"[^>]*>\s*/, '')
    .replace(/<title>[^<]*<\/title>/, () => `${hoisted}\n    ${headTags(page, title, settings)}`)
    .replace(
      '<div id="root"></div>',
      () => `<div id="root">${html.slice(hoisted.length)}</div>\n    ${earlyCaptureMarkup()}\n    ${settingsScript}`,
    );
}
