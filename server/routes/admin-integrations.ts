import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: integration settings stored on the server (issue 6). */
export async function adminIntegrationRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
