import { config } from 'zod/v4/core';

/*
 * Imported first by the code that builds zod schemas in the browser (web/src/app/start.tsx, the
 * assessment modal): zod would otherwise probe `new Function` as each object schema is built,
 * which this site's CSP refuses and the browser reports as an issue on the page.
 */
config({ jitless: true });
