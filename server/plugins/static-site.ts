import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { isPagePath } from '#machines/protocol/pages.js';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The admin area and its sign-in page: never kept by the browser or a proxy, so Back after signing
 * out loads them afresh (and is sent to /auth) instead of showing what the coach saw.
 */
function isPrivatePage(path: string): boolean {
  return path === '/auth' || path === '/admin' || path.startsWith('/admin/');
}

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and
 * index.html for every other GET that is not an API path, so client-side routes work on reload:
 * with 200 for the site's pages and 404 for any other path (machines/protocol/pages.ts).
 */
export async function staticSite(app: FastifyInstance, options: { root?: string } = {}): Promise<void> {
  const root = options.root ?? WEB_DIST;
  const built = existsSync(`${root}/index.html`);
  if (built) {
    // wildcard: false registers one route per built file at start-up, so anything else falls
    // through to the handler below
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
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

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!isPage) throw new HttpError(404, `No route for ${request.method} ${path}`);
    if (!built) {
      // a page request, answered in words for whoever opens the site: not an API error
      return reply.status(503).type('text/plain').send('The site has not been built yet: run `npm start` (it builds web/ first).');
    }
    // whatever the Accept header (curl, uptime checks, link previews send */*): a page is 200, an
    // unknown path 404, both with the site, whose router shows the not-found page for the latter
    return reply.status(isPagePath(path) ? 200 : 404).sendFile('index.html');
  });
}
