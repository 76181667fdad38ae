import { z } from 'zod';

/** An id in content: lower_snake_case, so answers and rules can key on it. */
export const id = z.string().regex(/^[a-z][a-z0-9_]*$/, 'ids are lower_snake_case');

/** Text shown to a visitor: never blank. */
export const text = z.string().trim().min(1);

/** A content version, e.g. 2.0.0. */
export const version = z.string().regex(/^\d+\.\d+\.\d+$/);
