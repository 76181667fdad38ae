import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '#core/http-error.js';
import { paymentSchema } from '#machines/protocol/payment.js';
import { RefundFailedError, refundPayment } from '#core/payments/refund.js';
import { createStripeClient, stripeErrorSummary } from '#core/payments/stripe-client.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guarded } from './responses.js';

/** POST /api/admin/payments/:id/refund: an admin refunds a succeeded deposit (Stripe's, or a test payment). */
export function refundRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'config' | 'engine'>, done: () => void): void {
  const stripe = createStripeClient(deps.config);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/admin/payments/:id/refund',
    {
      schema: {
        summary: 'Refund a succeeded deposit (admin; needs the x-csrf-token header)',
        tags: ['payments'],
        params: z.object({ id: z.uuid() }),
        response: {
          200: paymentSchema,
          ...guarded,
          404: errorBodySchema,
          409: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request) => {
      try {
        return await refundPayment(deps.engine, stripe, request.params.id);
      } catch (error) {
        if (!(error instanceof RefundFailedError)) throw error;
        // a message the admin can act on; Stripe's details go to the log only
        request.log.error({ failure: error.name, stripe: stripeErrorSummary(error.cause) }, 'Stripe call failed');
        throw new HttpError(502, error.message);
      }
    },
  );
  done();
}
