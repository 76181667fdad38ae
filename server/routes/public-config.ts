import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { siteSettingsSchema } from '#core/site/settings.js';
import type { RouteDeps } from './deps.js';

/** The refundable deposit, in cents ($250). */
const DEPOSIT_CENTS = 25_000;

const publicConfigSchema = z.object({
  /** 'test' when no Stripe key is set: the product's test-payment mode, no money moves. */
  paymentMode: z.enum(['stripe', 'test']),
  depositCents: z.number().int(),
  /** 'llm' when an OpenAI-compatible endpoint answers the Mirror, else the built-in engine. */
  mirrorEngine: z.enum(['llm', 'built-in']),
  /** The scheduling page the coach set in Integrations (enabled and saved), or null. */
  bookingUrl: z.string().nullable(),
  // the admin's site settings, all of them meant for visitors: community page, social links, contact details
  ...siteSettingsSchema.shape,
});

/** GET /api/config: what the browser needs to know about this deployment; never a secret. */
export function publicConfigRoutes(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/config',
    {
      schema: {
        summary: 'Public settings of this deployment: payment mode, deposit, Mirror engine, booking page and the site settings',
        tags: ['site'],
        response: { 200: publicConfigSchema },
      },
    },
    async () => {
      // kept in memory until a change is announced, so the admin's changes reach the next page load without a restart
      const { bookingUrl: booking, site } = await deps.publicSettings.read();
      return {
        paymentMode: deps.config.STRIPE_SECRET_KEY ? ('stripe' as const) : ('test' as const),
        depositCents: DEPOSIT_CENTS,
        mirrorEngine: deps.config.MIRROR_LLM_BASE_URL && deps.config.MIRROR_LLM_MODEL ? ('llm' as const) : ('built-in' as const),
        bookingUrl: booking,
        ...site,
      };
    },
  );
  done();
}
