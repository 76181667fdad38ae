import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and
 * index.html for every other GET that is not an API path, so client-side routes (and the 404 page)
 * work on reload.
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
      setHeaders(res, filePath) {
        res.header('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.headers.accept?.includes('text/html');
    if (!isPage) {
      return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The site has not been built yet: run `npm start` (it builds web/ first).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
