import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: send-contact-email (issue 4). */
export async function contactRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
