import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentPurposeSchema } from '#machines/protocol/payment.js';
import { HttpError } from '#core/http-error.js';
import { findPayment } from '#core/payments/payment-tracking.js';
import { paymentStatusSchema } from '#machines/protocol/payment.js';
import { createStripeClient } from '#core/payments/stripe-client.js';
import { handleStripeEvent, verifiedStripeEvent, WebhookSignatureError } from '#core/payments/webhook.js';
import { CheckoutNotStartedError, createPayment } from '../adapters/create-payment.js';
import { errorBodySchema } from '../auth/schemas.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

const tags = ['payments'];

const createPaymentBody = z.object({
  source: z.literal('refundable_deposit').default('refundable_deposit'),
  flowId: z.uuid(),
});

const createPaymentResponse = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('stripe'), url: z.url() }),
  z.object({ mode: z.literal('test'), paymentIntentId: z.string() }),
]);

const verifyQuery = z
  .object({
    paymentIntentId: z.string().min(1).max(255).optional(),
    sessionId: z.string().min(1).max(255).optional(),
  })
  .refine((query) => (query.paymentIntentId === undefined) !== (query.sessionId === undefined), {
    message: 'give either paymentIntentId or sessionId',
    path: ['paymentIntentId'],
  });

const verifyResponse = z.object({
  success: z.boolean(),
  status: paymentStatusSchema,
  purpose: paymentPurposeSchema,
  amountCents: z.number().int(),
  testMode: z.boolean(),
});

const webhookResponse = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

/**
 * The Stripe webhook in a plugin of its own: it parses JSON bodies as raw bytes, which the
 * signature is computed over, without changing how any other route reads its body.
 */
function stripeWebhook(app: FastifyInstance, deps: RouteDeps, done: () => void): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/stripe/webhook',
    {
      config: { rateLimit: rateLimits.stripeEvents },
      schema: {
        summary: 'Receive a signed Stripe event (checkout completed/expired/failed, charge refunded); each event id is processed once',
        tags,
        response: { 200: webhookResponse, 400: errorBodySchema },
      },
    },
    async (request) => {
      let event;
      try {
        event = await verifiedStripeEvent(request.body as Buffer, request.headers['stripe-signature'], deps.config.STRIPE_WEBHOOK_SECRET);
      } catch (error) {
        throw error instanceof WebhookSignatureError ? new HttpError(400, error.message) : error;
      }
      const { duplicate } = await handleStripeEvent(deps.engine, event, request.log);
      return duplicate ? { received: true as const, duplicate: true as const } : { received: true as const };
    },
  );
  done();
}

/** create-payment, the Stripe webhook and verifyPayment; refunds are an admin route (server/admin/routes/refunds.ts). */
export async function paymentRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const stripe = createStripeClient(deps.config);

  api.post(
    '/api/functions/create-payment',
    {
      config: { rateLimit: rateLimits.payment },
      schema: {
        summary:
          "Start the $250 refundable deposit on the visitor's own flow at its next step (PAY_DEPOSIT or PAY_FOR_HOMEWORK; a flow already at `payment` keeps its attempt): the Stripe Checkout url once the flow's payments job has opened it, or the test payment once confirmed (about 1 s)",
        tags,
        body: createPaymentBody,
        response: { 200: createPaymentResponse, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema, 504: errorBodySchema },
      },
    },
    async (request) => {
      try {
        return await createPayment(deps, request.visitorId, request.body.flowId, stripe ? 'stripe' : 'test');
      } catch (error) {
        throw error instanceof CheckoutNotStartedError ? new HttpError(error.statusCode, error.message) : error;
      }
    },
  );

  api.get(
    '/api/payments/verify',
    {
      schema: {
        summary: "verifyPayment: whether this visitor's payment (by payment-intent id or checkout session id) succeeded",
        tags,
        querystring: verifyQuery,
        response: { 200: verifyResponse, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const { paymentIntentId, sessionId } = request.query;
      const payment = await findPayment(deps.pool, paymentIntentId ? { paymentIntentId } : { sessionId: sessionId! }, {
        visitorId: request.visitorId,
      });
      return {
        success: payment.status === 'succeeded',
        status: payment.status,
        purpose: payment.purpose,
        amountCents: payment.amountCents,
        testMode: payment.testMode,
      };
    },
  );

  await app.register(stripeWebhook, deps);
}
