import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamsSchema } from '#machines/protocol/admin/common.js';
import { assignBookingBodySchema, bookingAssignedSchema, unmatchedBookingsSchema } from '#machines/protocol/admin/bookings.js';
import { assignBooking, unmatchedBookingsFor } from '#core/scheduling/assign-booking.js';
import { errorBodySchema } from '../../auth/schemas.js';
import type { RouteDeps } from '../../routes/deps.js';
import { guardedWithInput, notFound } from './responses.js';

/** Unmatched bookings on a lead's page, and the coach's one-click assignment of one to the lead (decision 0046). */
export function adminBookingRoutes(app: FastifyInstance, deps: Pick<RouteDeps, 'pool' | 'engine'>, done: () => void): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/leads/:id/unmatched-bookings',
    {
      schema: {
        tags: ['admin'],
        summary: "Recent bookings no flow matched, those with the lead's address or name first",
        params: idParamsSchema,
        response: { 200: unmatchedBookingsSchema, ...guardedWithInput },
      },
    },
    async (request) => {
      const items = await unmatchedBookingsFor(deps.pool, request.params.id);
      if (!items) throw notFound('lead', request.params.id);
      return { items };
    },
  );

  api.post(
    '/api/admin/bookings/:id/assign',
    {
      schema: {
        tags: ['admin'],
        summary: "Assign an unmatched booking to a lead: SESSION_BOOKED on the lead's paid deposit flow (needs the x-csrf-token header)",
        params: idParamsSchema,
        body: assignBookingBodySchema,
        response: { 200: bookingAssignedSchema, ...guardedWithInput, 409: errorBodySchema },
      },
    },
    async (request) => ({ assigned: true as const, ...(await assignBooking(deps.engine, request.params.id, request.body.leadId)) }),
  );
  done();
}
