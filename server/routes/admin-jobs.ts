import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: the job queues and the flow machines for ops (issue 6). */
export async function adminJobRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
