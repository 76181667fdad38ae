import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: create-payment, the Stripe webhook, verifyPayment and deposit refunds (issue 4). */
export async function paymentRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
