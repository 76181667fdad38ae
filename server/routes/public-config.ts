import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingUrl } from '../integrations/settings.js';
import type { RouteDeps } from './deps.js';

/** The refundable deposit, in cents (spec section 9). */
export const DEPOSIT_CENTS = 25_000;

const publicConfigSchema = z.object({
  /** 'test' when no Stripe key is set: the spec's test-payment mode, no money moves. */
  paymentMode: z.enum(['stripe', 'test']),
  depositCents: z.number().int(),
  /** 'llm' when an OpenAI-compatible endpoint answers the Mirror, else the built-in engine. */
  mirrorEngine: z.enum(['llm', 'built-in']),
  /** The scheduling page the coach set in Integrations (enabled and saved), or null. */
  bookingUrl: z.string().nullable(),
});

/** GET /api/config: what the browser needs to know about this deployment; never a secret. */
export async function publicConfigRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/config',
    { schema: { summary: 'Public settings of this deployment (payment mode, deposit, Mirror engine, booking page)', tags: ['site'], response: { 200: publicConfigSchema } } },
    async () => {
      // only a web address is ever linked to
      const booking = await bookingUrl(deps.pool);
      return {
        paymentMode: deps.config.STRIPE_SECRET_KEY ? ('stripe' as const) : ('test' as const),
        depositCents: DEPOSIT_CENTS,
        mirrorEngine: deps.config.MIRROR_LLM_BASE_URL && deps.config.MIRROR_LLM_MODEL ? ('llm' as const) : ('built-in' as const),
        bookingUrl: booking,
      };
    },
  );
}
