/**
 * An effect a machine names for its host to carry out: a no-op here that only fixes the type of the
 * action's params. The server reads such effects off XState's pure transitions as `{ type, params }`;
 * the browser provides real implementations with `machine.provide`.
 */
export function effect<Params>(): (args: unknown, params: Params) => void {
  return () => {};
}
