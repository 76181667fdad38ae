import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: admin sign-in, sign-out and get-session (issue 4). */
export async function authRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
