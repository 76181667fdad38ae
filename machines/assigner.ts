import { assign, type Assigner, type EventObject, type MachineContext, type ParameterizedObject, type PropertyAssigner } from 'xstate';

/**
 * XState's `assign` bound to one machine's context and events, for actions written outside
 * `setup()`: setup infers those types only for the actions written inside it.
 */
export function assignerFor<TContext extends MachineContext, TEvent extends EventObject>() {
  return <TParams extends ParameterizedObject['params'] | undefined = undefined>(
    assignment: Assigner<TContext, TEvent, TParams, TEvent, never> | PropertyAssigner<TContext, TEvent, TParams, TEvent, never>,
  ) => assign<TContext, TEvent, TParams, TEvent, never>(assignment);
}
