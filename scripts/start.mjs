// `npm start`: install what is missing, build what is stale, then hand over to the supervisor.
import { ensureInstalled, ensureWebBuilt } from './lib/ensure.mjs';

ensureInstalled();
ensureWebBuilt();
const { register } = await import('tsx/esm/api');
register();
await import('./supervise.js');
