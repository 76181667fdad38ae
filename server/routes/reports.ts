import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: the report PDF (issue 4). */
export async function reportRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
