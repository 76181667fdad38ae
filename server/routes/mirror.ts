import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: mirror-llm-response (issue 4). */
export async function mirrorRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
