import { useEffect, useRef, type ReactNode } from 'react';
import type { Actor } from 'xstate';
import type { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { diagnosticProgress } from '#machines/diagnostic/diagnostic.screens.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { useFlowSnapshot } from '#web/lib/flows/use-server-flow.js';
import { Item } from './item.js';
import { Frame } from './page-frame.js';
import { TimedAhead } from './timed-ahead.js';
import type { DiagnosticFlow } from './types.js';

/** The flow's current screen in the page's frame: an item, 'Timed Questions Ahead', or saving once all are answered. */
export function Screens({ flow, actor }: { flow: DiagnosticFlow; actor: Actor<typeof diagnosticMachine> }) {
  const snapshot = useFlowSnapshot(actor);
  const state = statePath(snapshot.value);
  const { context } = snapshot;
  const screen = context.screens[context.index];
  const screenKey = `${context.index}:${state}`;
  const heading = useRef<HTMLHeadingElement>(null);

  // each new item (and a vignette's follow-up) moves focus to its question, for keyboard and screen-reader users
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    heading.current?.focus();
  }, [screenKey]);

  // an answer waits for the server (which times it) before the next can be given
  const busy = flow.pending > 0;
  const prompt = (text: string) => (
    <h2 ref={heading} tabIndex={-1} className="font-serif text-2xl leading-snug text-balance text-ink sm:text-[1.7rem] focus:outline-none">
      {text}
    </h2>
  );
  let body: ReactNode;
  if (!screen || state === 'grading' || state === 'graded') {
    body = (
      <p className="text-muted" role="status">
        Saving your answers…
      </p>
    );
  } else if (state === 'interstitial') {
    body = <TimedAhead screens={context.screens} prompt={prompt} busy={busy} onStart={() => flow.send({ type: 'START_TIMED' })} />;
  } else {
    body = (
      <Item
        key={screenKey}
        flow={flow}
        state={state}
        screen={screen}
        clockKey={`${flow.flowId}:${context.index}`}
        busy={busy}
        prompt={prompt}
      />
    );
  }
  return (
    <Frame progress={diagnosticProgress(context)} busy={busy}>
      {body}
    </Frame>
  );
}
