import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { sessionToken } from '../auth/guard.js';
import { logMissingPage } from '../routes/client-log.js';
import { isPagePath, isPrerenderedPage, isTokenPage, PRERENDERED_PAGES, UNINDEXED_PAGES } from '#machines/protocol/pages.js';
import { sendEncoded } from './encoded-text.js';
import { renderedPages, type RenderedPages } from './rendered-pages.js';
import type { PublicSettings } from '#core/site/public-settings.js';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The admin area and its sign-in page: never kept by the browser or a proxy, so Back after signing
 * out loads them afresh (and is sent to /auth) instead of showing what the coach saw.
 */
function isPrivatePage(path: string): boolean {
  return path === '/auth' || path === '/admin' || path.startsWith('/admin/');
}

/** robots.txt: everything public may be crawled, the admin area and the API may not. */
function robotsTxt(publicUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\nDisallow: /auth\n\nSitemap: ${publicUrl}/sitemap.xml\n`;
}

/** sitemap.xml: every public page for search results. */
function sitemapXml(publicUrl: string): string {
  const urls = PRERENDERED_PAGES.filter((page) => !UNINDEXED_PAGES.has(page))
    .map((page) => `  <url><loc>${publicUrl}${page}</loc></url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** The built site: its folder, whether it was built, and its pages as the server draws them (null without a renderer). */
export interface BuiltSite {
  root: string;
  built: boolean;
  rendered: RenderedPages | null;
}

/** Finds the built site (web/dist unless `root` says otherwise) and its page renderer. */
export function builtSite(options: { root?: string; publicUrl: string; settings: PublicSettings; log: FastifyBaseLogger }): BuiltSite {
  const root = options.root ?? WEB_DIST;
  const built = existsSync(`${root}/index.html`);
  const rendered = built ? renderedPages({ root, publicUrl: options.publicUrl, settings: options.settings, log: options.log }) : null;
  return { root, built, rendered };
}

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and
 * index.html for every other GET that is not an API path, so client-side routes work on reload:
 * with 200 for the site's pages and 404 for any other path (machines/protocol/pages.ts).
 */
export async function staticSite(app: FastifyInstance, options: { site: BuiltSite; publicUrl: string }): Promise<void> {
  const { root, built, rendered } = options.site;

  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(robotsTxt(options.publicUrl)),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (_request, reply) =>
    reply.type('application/xml; charset=utf-8').send(sitemapXml(options.publicUrl)),
  );
  if (built) {
    // wildcard: false registers one route per built file at start-up, so anything else falls
    // through to the handler below
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // the build writes a .br and a .gz beside each text file of 1 KB or more (web/precompress/plugin.ts):
      // sent by Accept-Encoding, with Vary: Accept-Encoding; never served under their own names
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      // also runs when the not-found handler below sends index.html, so the page's path decides
      setHeaders(res, filePath) {
        const path = res.request.url.split('?')[0]!;
        res.header(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : isPrivatePage(path) ? 'no-store' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!isPage) throw new HttpError(404, `No route for ${request.method} ${path}`);
    if (!built) {
      // a page request, answered in words for whoever opens the site: not an API error
      return reply.status(503).type('text/plain').send('The site has not been built yet: run `npm start` (it builds web/ first).');
    }
    // whatever the Accept header (curl, uptime checks, link previews send */*): a page is 200, an
    // unknown path 404, both with the site, whose router shows the not-found page for the latter.
    // A public page, and the not-found page, arrive rendered; the others as the shell
    const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
    // a page opened from an email's token link: not for search results (the page says so too, once it runs)
    if (isTokenPage(trimmed)) reply.header('x-robots-tag', 'noindex');
    const known = isPagePath(path);
    if (!known && request.method === 'GET') logMissingPage(request, request.url);
    // the admin area draws its own not-found screen in its layout, from the shell
    const which = known ? (isPrerenderedPage(trimmed) ? trimmed : undefined) : isPrivatePage(path) ? undefined : null;
    const page = rendered && which !== undefined ? await rendered.page(which) : undefined;
    if (page !== undefined) {
      // whoever may be signed in (a session cookie, valid or not) gets the site's code at once,
      // so the bar shows their account rather than the visitor's call to action
      const html = sessionToken(request) ? await page.forSignedIn() : page.forVisitors;
      reply
        .status(known ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache');
      return sendEncoded(request, reply, html, ['cookie']);
    }
    return reply.status(known ? 200 : 404).sendFile('index.html');
  });
}
