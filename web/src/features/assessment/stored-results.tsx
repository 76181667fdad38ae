import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { statePath } from '../../../../machines/protocol/can-accept';
import type { FlowMode } from '../../../../machines/protocol/common';
import { Button } from '../../components/ui';
import { clearStoredAssessment, type StoredAssessment } from './browser-storage';
import { browserAssessmentFlow } from './machines';
import { NEXT_STEP, ResultsView } from './steps/results';
import { stepTitle, topStep } from './titles';
import type { Frame } from './live-assessment';

/**
 * completed_results: a completed assessment stored in this browser, shown again on open (not in
 * Mirror mode, not in testing mode). The machine runs here alone, from the stored result: the
 * server has no flow to open for it. Its next step continues on the server flow the result came
 * from; Retake Assessment clears the stored result and starts a new flow.
 */
export function StoredResults({
  stored,
  mode,
  frame,
  onContinue,
  onRetake,
}: {
  stored: StoredAssessment;
  mode: FlowMode;
  frame: Frame;
  onContinue: () => void;
  onRetake: () => void;
}) {
  const machine = useMemo(
    () => browserAssessmentFlow({ storeResult: () => {}, clearStoredAssessment: () => clearStoredAssessment(), clearSavedAnswers: () => {} }),
    [],
  );
  const [snapshot, send] = useMachine(machine, { input: { mode, storedResult: stored.result } });
  const step = topStep(snapshot.value);
  useEffect(() => {
    if (step === 'intro') onRetake();
    else if (step !== 'completed_results' && step !== 'opening') onContinue();
  }, [step, onContinue, onRetake]);

  const completedOn = new Date(stored.completedAt);
  const when = Number.isNaN(completedOn.getTime()) ? null : completedOn.toLocaleDateString('en-US', { day: 'numeric', month: 'long', year: 'numeric' });
  return frame(
    stepTitle(snapshot),
    <ResultsView
      result={stored.result}
      tier={stored.tier}
      localNotice={false}
      intro={
        <p className="text-base leading-relaxed text-muted">
          Welcome back. These are the results of the assessment you completed{when ? ` on ${when}` : ''}. Leaders usually retake it after 6 to 12
          months, to see what has changed.
        </p>
      }
      actions={
        <>
          <Button size="lg" onClick={() => send({ type: 'CONTINUE' })}>
            {NEXT_STEP[stored.tier].action}
          </Button>
          <Button size="lg" variant="secondary" onClick={() => send({ type: 'RETAKE' })}>
            Retake Assessment
          </Button>
        </>
      }
    />,
    statePath(snapshot.value),
  );
}
