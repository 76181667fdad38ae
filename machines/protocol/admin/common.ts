import { z } from 'zod';

/**
 * A moment on the wire: an ISO 8601 string in JSON, a Date in the program. The server encodes
 * its database's Dates (the response serializer runs `z.encode`); the browser's parse decodes
 * the strings back, so both sides read the same schema.
 */
export const timestamp = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (iso) => new Date(iso),
  encode: (date) => date.toISOString(),
});

export const jsonObject = z.record(z.string(), z.unknown());

export const idParamsSchema = z.object({ id: z.uuid() });

/** A page of rows: the shape every paginated admin list shares beside its rows. */
export const pageFields = { total: z.number().int(), page: z.number().int(), pageSize: z.number().int() };
