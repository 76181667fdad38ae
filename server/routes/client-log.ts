import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: reports from the browser to the server log, e.g. a 404 page's missing path (issue 5). */
export async function clientLogRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
