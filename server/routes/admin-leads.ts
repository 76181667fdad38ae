import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.js';

/** Placeholder: the admin's leads: list, search, filters, CSV, a lead's page and journey, delete (issue 6). */
export async function adminLeadRoutes(_app: FastifyInstance, _deps: RouteDeps): Promise<void> {}
