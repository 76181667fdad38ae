import { useEffect, useRef } from 'react';
import { ProgressBar } from '#web/components/ui/index.js';
import { diagnosticBank } from '#machines/content/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { StepEyebrow } from '../../ui.js';
import { ScreenBody } from './screen-body.js';
import { TimedInterstitial } from './timed-interstitial.js';
import type { DiagnosticSend } from './types.js';

/** The block a screen belongs to (label and instructions), read from the bundled bank. */
function blockOf(screen: Screen): { label: string; instructions: string } | null {
  const blocks = [diagnosticBank.baseline, diagnosticBank.advanced_traits, diagnosticBank.vignettes];
  const block = blocks.find((b) => b?.id === screen.blockId);
  return block ? { label: block.label, instructions: block.instructions } : null;
}

/**
 * One screen with the progress bar. A new screen scrolls the dialog back to the top and moves
 * focus to its question, so the progress and the question are seen (and heard) first.
 */
export function ScreenFrame({
  flowId,
  send,
  state,
  screen,
  context,
  current,
  total,
}: {
  flowId: string;
  send: DiagnosticSend;
  state: string;
  screen: Screen;
  context: { index: number; screens: Screen[]; ranking: string[] };
  current: number;
  total: number;
}) {
  const root = useRef<HTMLDivElement>(null);
  const screenKey = state === 'interstitial' ? 'interstitial' : `${context.index}:${state}`;
  const firstScreen = useRef(true);
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    root.current?.closest('[data-step]')?.scrollTo({ top: 0 });
    root.current?.querySelector<HTMLElement>('[data-screen-heading]')?.focus({ preventScroll: true });
  }, [screenKey]);
  const block = blockOf(screen);
  const clockKey = `${flowId}:${state === 'interstitial' ? 'interstitial' : context.index}`;
  const isFirstOfBlock = context.index === 0 || context.screens[context.index - 1]?.blockId !== screen.blockId;

  return (
    <div ref={root} className="flex flex-col gap-7" data-diagnostic-screen={screenKey}>
      <ProgressBar
        value={state === 'interstitial' ? current - 1 : current}
        max={total}
        label="Diagnostic progress"
        valueText={`${current} of ${total}`}
        showLabel
        tone="brass"
      />
      {state === 'interstitial' ? (
        <TimedInterstitial screens={context.screens} onStart={() => send({ type: 'START_TIMED' })} />
      ) : (
        <div key={clockKey} className="flex flex-col gap-6">
          {block && (
            <div className="flex flex-col gap-1">
              <StepEyebrow>{block.label}</StepEyebrow>
              {isFirstOfBlock && <p className="text-sm leading-relaxed text-muted">{block.instructions}</p>}
            </div>
          )}
          <ScreenBody state={state} screen={screen} ranking={context.ranking} clockKey={clockKey} send={send} />
        </div>
      )}
    </div>
  );
}
