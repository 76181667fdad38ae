import { transition, type AnyStateMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';

/**
 * True when `event` would change anything in `snapshot`: a new state or context, or an effect to
 * run. The server answers 409 otherwise. Built on XState's pure `transition`, so no effect runs
 * and no timer starts while asking; an unhandled event returns the very same snapshot object.
 */
export function canAccept<TMachine extends AnyStateMachine>(
  machine: TMachine,
  snapshot: SnapshotFrom<TMachine>,
  event: EventFromLogic<TMachine>,
): boolean {
  const [next, actions] = transition(machine, snapshot, event);
  return next !== snapshot || actions.length > 0;
}

/** The dotted path of a snapshot's active leaf states, e.g. 'processing.revealing'. */
export function statePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return '';
  return Object.entries(value as Record<string, unknown>)
    .map(([key, child]) => {
      const rest = statePath(child);
      return rest ? `${key}.${rest}` : key;
    })
    .join(',');
}
