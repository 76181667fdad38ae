import type Stripe from 'stripe';
import type { Config } from '../config/index.js';

let stripePackage: Promise<typeof Stripe> | undefined;
let loadedPackage: typeof Stripe | undefined;

/**
 * The stripe package, loaded on first use: a process in test-payment mode, or one that has not
 * taken a payment yet, does not hold it (decision 0031).
 */
export function loadStripe(): Promise<typeof Stripe> {
  stripePackage ??= import('stripe').then((module) => (loadedPackage = module.default));
  return stripePackage;
}

/** The Stripe client for a configured key, made on first call; null in test-payment mode. */
export type StripeClient = (() => Promise<Stripe>) | null;

/**
 * The Stripe client for the configured secret key, or null in test-payment mode (no key). With
 * STRIPE_API_URL set, requests go there instead of api.stripe.com (tests run a loopback fake).
 */
export function createStripeClient(config: Config): StripeClient {
  const key = config.STRIPE_SECRET_KEY;
  if (!key) return null;
  const apiUrl = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  let client: Promise<Stripe> | undefined;
  return () =>
    (client ??= loadStripe().then(
      (StripeClass) =>
        new StripeClass(key, {
          // every call we make carries an idempotency key, so retrying a lost answer is safe
          maxNetworkRetries: 2,
          // the visitor waits on create-payment: fail in seconds, not Stripe's default 80
          timeout: 20_000,
          ...(apiUrl && {
            protocol: apiUrl.protocol === 'http:' ? 'http' : 'https',
            host: apiUrl.hostname,
            port: apiUrl.port || (apiUrl.protocol === 'http:' ? 80 : 443),
          }),
        }),
    ));
}

/** What is safe to log about a failed Stripe call: never the request, its headers or the key. */
export function stripeErrorSummary(error: unknown): Record<string, unknown> {
  // a Stripe error exists only once the package is loaded
  if (loadedPackage && error instanceof loadedPackage.errors.StripeError) {
    return { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId, message: error.message };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
