/** Who carries out an effect when the server runs its machine as a flow. */
type EffectHost = 'server' | 'browser';

/**
 * An effect a machine names for its host to carry out: a no-op here that fixes the type of the
 * action's params and says who carries it out. The server reads such effects off XState's pure
 * transitions as `{ type, params }`; a browser provides its implementations with `machine.provide`.
 */
export type Effect<Params, Host extends EffectHost = EffectHost> = ((args: unknown, params: Params) => void) & { readonly host: Host };

function declare<Params, Host extends EffectHost>(host: Host): Effect<Params, Host> {
  return Object.assign(() => {}, { host });
}

/**
 * An effect the server carries out when it applies the event (its side in core/flows/effects.ts,
 * which the compiler holds to this declaration's name and params). A browser running the machine
 * on its own may provide it too.
 */
export const serverEffect = <Params = undefined>(): Effect<Params, 'server'> => declare('server');

/** An effect only a browser carries out, if it provides one; the server has nothing to do for it. */
export const browserEffect = <Params = undefined>(): Effect<Params, 'browser'> => declare('browser');

/** The params an effect declaration fixes. */
export type EffectParams<Declared> = Declared extends Effect<infer Params> ? Params : never;
