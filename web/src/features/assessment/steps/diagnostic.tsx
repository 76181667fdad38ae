import { useEffect, useRef } from 'react';
import type { Actor } from 'xstate';
import type { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { diagnosticProgress } from '#machines/diagnostic/diagnostic.screens.js';
import type { DiagnosticAnswers } from '#machines/protocol/common.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { useFlowSnapshot, type ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import { browserDiagnostic } from '#web/lib/flows/browser-machines.js';
import { Waiting } from '../ui.js';
import { ChildFlowFailed, useChildFlow } from './child-flow.js';
import { ScreenFrame } from './diagnostic-screens/screen-frame.js';

type DiagnosticFlow = ServerFlowHandle<typeof browserDiagnostic>;

/**
 * The diagnostic step of the modal: its own server flow (machine 'diagnostic', whose answers the
 * server times), one per visit of the assessment flow's `diagnostic` state (`slot`), so a reload or
 * a second tab resumes the same flow at the same question. When the server says it is done, the
 * answers are handed to the assessment flow (DIAGNOSTIC_COMPLETED with this flow's id).
 */
export function DiagnosticStep({
  slot,
  testing,
  onCompleted,
}: {
  /** The visit's slot (childFlowSlot of the parent flow). */
  slot: string;
  /** The parent flow's testingMode: a test assessment's diagnostic is a test flow too. */
  testing: boolean;
  onCompleted: (answers: DiagnosticAnswers, diagnosticFlowId: string) => void;
}) {
  const flow = useChildFlow('diagnostic', browserDiagnostic, slot, { machine: 'diagnostic', testing });
  if (flow.status === 'error') return <ChildFlowFailed onRetry={flow.retry} />;
  if (!flow.actor) return <Waiting title="Preparing your diagnostic" />;
  return <DiagnosticScreens flow={flow} actor={flow.actor} onCompleted={onCompleted} />;
}

function DiagnosticScreens({
  flow,
  actor,
  onCompleted,
}: {
  flow: DiagnosticFlow;
  actor: Actor<typeof diagnosticMachine>;
  onCompleted: (answers: DiagnosticAnswers, diagnosticFlowId: string) => void;
}) {
  const snapshot = useFlowSnapshot(actor);
  const { context } = snapshot;
  const state = statePath(snapshot.value);
  const flowId = flow.flowId!;
  const { current, total } = diagnosticProgress(context);
  const screen = context.screens[context.index];

  // hand over once the server has recorded the last answer (not merely this tab)
  const handed = useRef(false);
  useEffect(() => {
    if (handed.current || flow.serverState !== 'done' || flow.pending !== 0 || state !== 'done') return;
    handed.current = true;
    onCompleted(context.answers, flowId);
  }, [flow.serverState, flow.pending, state, context.answers, flowId, onCompleted]);

  if (state === 'done' || !screen) return <Waiting title="Saving your answers" />;
  return <ScreenFrame flowId={flowId} send={flow.send} state={state} screen={screen} context={context} current={current} total={total} />;
}
