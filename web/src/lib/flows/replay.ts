import { createActor, type Actor, type AnyStateMachine, type InspectionEvent, type Observer } from 'xstate';
import { canAccept } from '#machines/protocol/can-accept.js';

/**
 * A started actor restored from the server's `snapshot`, with the events not yet sent replayed on
 * it; `kept` is those it still takes (the others were chosen on a screen the server has left).
 */
export function actorWithReplay<TMachine extends AnyStateMachine, TEvent>(
  machine: TMachine,
  snapshot: unknown,
  events: TEvent[],
  inspect: Observer<InspectionEvent> | undefined,
): { actor: Actor<TMachine>; kept: TEvent[] } {
  // the snapshot carries the context, so no input is needed (hence the cast for input-taking machines)
  const options = { snapshot, ...(inspect ? { inspect } : {}) };
  const actor = (createActor as (logic: AnyStateMachine, options: object) => Actor<TMachine>)(machine, options);
  actor.start();
  const kept = events.filter((event) => {
    if (!canAccept(machine, actor.getSnapshot(), event as never)) return false;
    actor.send(event as never);
    return true;
  });
  return { actor, kept };
}
