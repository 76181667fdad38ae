import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentPurposeSchema } from '#machines/protocol/payment.js';
import { requireAdmin } from '../auth/guard.js';
import { CheckoutNotStartedError, createPayment } from '../adapters/create-payment.js';
import { findPayment, paymentSchema, paymentStatusSchema } from '#core/payments/payment-tracking.js';
import { RefundFailedError, refundPayment } from '#core/payments/refund.js';
import { createStripeClient, stripeErrorSummary } from '#core/payments/stripe-client.js';
import { handleStripeEvent, verifiedStripeEvent, WebhookSignatureError } from '#core/payments/webhook.js';
import { rateLimits } from '../plugins/security.js';
import type { RouteDeps } from './deps.js';

const tags = ['payments'];

const errorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});

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

/** A Stripe refund failure as a 502 with a message the admin can act on; the details go to the log only. */
function sendRefundError(request: FastifyRequest, reply: FastifyReply, error: RefundFailedError) {
  request.log.error({ failure: error.name, stripe: stripeErrorSummary(error.cause) }, 'Stripe call failed');
  return reply.status(502).send({ statusCode: 502, error: 'Bad Gateway', message: error.message });
}

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
        response: { 200: webhookResponse, 400: errorBody },
      },
    },
    async (request, reply) => {
      let event;
      try {
        event = verifiedStripeEvent(request.body as Buffer, request.headers['stripe-signature'], deps.config.STRIPE_WEBHOOK_SECRET);
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        return reply.status(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
      }
      const { duplicate } = await handleStripeEvent(deps.engine, event, request.log);
      return duplicate ? { received: true as const, duplicate: true as const } : { received: true as const };
    },
  );
  done();
}

/** create-payment, the Stripe webhook, verifyPayment and deposit refunds. */
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
        response: { 200: createPaymentResponse, 404: errorBody, 409: errorBody, 502: errorBody, 504: errorBody },
      },
    },
    async (request, reply) => {
      try {
        return await createPayment(deps, request.visitorId, request.body.flowId, stripe ? 'stripe' : 'test');
      } catch (error) {
        if (!(error instanceof CheckoutNotStartedError)) throw error;
        const reason = error.statusCode === 502 ? 'Bad Gateway' : 'Gateway Timeout';
        return reply.status(error.statusCode).send({ statusCode: error.statusCode, error: reason, message: error.message });
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
        response: { 200: verifyResponse, 400: errorBody, 404: errorBody },
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

  api.post(
    '/api/admin/payments/:id/refund',
    {
      preHandler: requireAdmin(deps.pool),
      schema: {
        summary: 'Refund a succeeded deposit (admin; needs the x-csrf-token header)',
        tags,
        params: z.object({ id: z.uuid() }),
        response: { 200: paymentSchema, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 502: errorBody, 503: errorBody },
      },
    },
    async (request, reply) => {
      try {
        return await refundPayment(deps.engine, stripe, request.params.id);
      } catch (error) {
        if (error instanceof RefundFailedError) return sendRefundError(request, reply, error);
        throw error;
      }
    },
  );

  await app.register(stripeWebhook, deps);
}
