import { useMemo, useState } from 'react';
import { childFlowSlotPrefix } from '#machines/assessment-flow/child-flow-slot.js';
import { Button } from '../../components/ui/index.js';
import type { FlowMode } from '#machines/protocol/common.js';
import type { FlowStartInput, ServerFlow } from '../../lib/flows/client.js';
import { FlowIdStore, removeWithPrefix, sessionStore } from '../../lib/flows/storage.js';
import { useServerFlow } from '../../lib/flows/use-server-flow.js';
import { flowSlot } from '../../lib/browser-storage.js';
import { rememberAssessmentStarted } from './opening.js';
import { FlowScreens } from './live/flow-screens.js';
import type { Frame } from './live/types.js';
import { browserAssessmentFlow } from '../../lib/flows/browser-machines.js';
import { NoticeBox, Waiting } from './ui.js';

/**
 * The modal's server-run assessment: the shared assessmentFlow machine kept in step with the
 * server by useServerFlow, each state shown by its step component. A returning visitor's flow
 * opens at completed_results: the server found their completed assessment.
 */
export function LiveAssessment({
  mode,
  resume,
  start,
  started,
  sessionKey,
  frame,
}: {
  mode: FlowMode;
  resume: string | null;
  start: FlowStartInput;
  /** A flow the early capture screen started (and sent the capture to), adopted instead of starting one. */
  started: Promise<ServerFlow> | null;
  sessionKey: string;
  frame: Frame;
}) {
  const ids = useMemo(() => new FlowIdStore(), []);
  const [savedAnswers] = useState(() => tabSavedAnswers(ids, resume));
  const machine = useMemo(() => browserAssessmentFlow(savedAnswers), [savedAnswers]);
  const flow = useServerFlow('assessmentFlow', machine, {
    flowId: resume,
    start,
    started,
    sessionKey,
    onFlowId: (flowId) => {
      rememberAssessmentStarted();
      savedAnswers.follow(flowId);
      ids.set(flowSlot(mode), flowId);
    },
  });

  if (!flow.actor) {
    return frame(
      'Welcome',
      flow.status === 'error' ? (
        <div className="flex flex-col items-start gap-5">
          <NoticeBox notice={{ title: 'Error', description: 'Failed to start assessment. Please try again.' }} />
          <Button onClick={flow.retry}>Try Again</Button>
        </div>
      ) : (
        <Waiting title="Preparing your assessment" />
      ),
      'loading',
    );
  }
  return <FlowScreens flow={flow} actor={flow.actor} mode={mode} frame={frame} reopened={resume !== null} />;
}

/**
 * The one action the browser performs for the flow it follows (`resume`, then each id the server
 * confirms): forgetting this tab's copies of a retaken diagnostic and its screens' clocks.
 */
function tabSavedAnswers(ids: FlowIdStore, resume: string | null) {
  let flowId = resume;
  return {
    follow: (next: string) => {
      flowId = next;
    },
    clearSavedAnswers: () => {
      if (!flowId) return;
      ids.forgetAll(childFlowSlotPrefix(flowId, 'diagnostic'));
      removeWithPrefix(sessionStore(), 'hf:shown:');
    },
  };
}
