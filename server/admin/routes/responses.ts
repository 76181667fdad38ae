import { HttpError } from '#core/http-error.js';
import { errorBodySchema } from '../../auth/schemas.js';

/** The admin guard's answers, which every admin route can give besides its own (response schemas, OpenAPI). */
export const guarded = { 401: errorBodySchema, 403: errorBodySchema };

/** A route's answers for a bad id or body, and for an id that names nothing. */
export const guardedWithInput = { ...guarded, 400: errorBodySchema, 404: errorBodySchema };

/** The 404 of an admin route whose id names nothing. */
export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, `No ${what} with id ${id}`);
}
