import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../routes/deps.js';

/** Placeholder: helmet with CSP and the rate limiter, applied to the whole app (issue 4). */
export async function security(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
