import type { FastifyInstance } from 'fastify';

/** Every route an app serves, as 'METHOD /path' (HEAD left out), read from its route tree. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const segments: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    segments.length = match[1]!.length / 4;
    segments.push(match[2]!);
    const path = segments.join('');
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes.sort();
}
