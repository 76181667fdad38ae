import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: the admin API under /api/admin (issue 4). */
export async function adminRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
