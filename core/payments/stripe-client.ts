import Stripe from 'stripe';
import type { Config } from '../config/index.js';

/**
 * The Stripe client for the configured secret key, or null in test-payment mode (no key). With
 * STRIPE_API_URL set, requests go there instead of api.stripe.com (tests run a loopback fake).
 */
export function createStripeClient(config: Config): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const apiUrl = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    // every call we make carries an idempotency key, so retrying a lost answer is safe
    maxNetworkRetries: 2,
    // the visitor waits on create-payment: fail in seconds, not Stripe's default 80
    timeout: 20_000,
    ...(apiUrl && {
      protocol: apiUrl.protocol === 'http:' ? 'http' : 'https',
      host: apiUrl.hostname,
      port: apiUrl.port || (apiUrl.protocol === 'http:' ? 80 : 443),
    }),
  });
}

/** What is safe to log about a failed Stripe call: never the request, its headers or the key. */
export function stripeErrorSummary(error: unknown): Record<string, unknown> {
  if (error instanceof Stripe.errors.StripeError) {
    return { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId, message: error.message };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
