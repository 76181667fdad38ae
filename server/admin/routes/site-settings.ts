import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../auth/schemas.js';
import { siteSettingsViewSchema } from '#machines/protocol/admin/site-settings.js';
import { saveSiteSettings, siteSettingsSchema, siteSettingsView } from '#core/site/settings.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guarded } from './responses.js';

/**
 * The admin's Site settings: the community page, the social profiles and the coach's contact
 * details that every page (through GET /api/config) and every email to a visitor use. The booking
 * page is shown beside them but set in Integrations, its one home.
 */
export function siteSettingsRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/site-settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'The site settings (defaults until saved) and whether a booking page is set in Integrations',
        response: { 200: siteSettingsViewSchema, ...guarded },
      },
    },
    async () => siteSettingsView(deps.pool),
  );

  api.put(
    '/api/admin/site-settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'Replace the site settings; pages and emails use them from the next request',
        body: siteSettingsSchema,
        response: { 200: siteSettingsViewSchema, 400: errorBodySchema, ...guarded },
      },
    },
    async (request) => {
      const saved = await saveSiteSettings(deps.pool, request.body, request.admin!.id);
      // this server's next page shows the save at once; the others hear the trigger's announcement
      deps.publicSettings.forget();
      return saved;
    },
  );
  done();
}
