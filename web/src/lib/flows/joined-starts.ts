import type { ServerFlow } from './client.js';

const startsInFlight = new Map<string, Promise<ServerFlow>>();

/**
 * Starts a flow, or joins the start already in flight under the same key (React's development
 * double mount opens two sessions for one component): both get the one flow.
 */
export function joinedStart(key: string | undefined, start: () => Promise<ServerFlow>): Promise<ServerFlow> {
  const existing = key ? startsInFlight.get(key) : undefined;
  if (existing) return existing;
  const started = start();
  if (key) {
    startsInFlight.set(key, started);
    const forget = () => startsInFlight.delete(key);
    started.then(forget, forget);
  }
  return started;
}
