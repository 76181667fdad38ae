import type { Actor } from 'xstate';
import type { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { FlowMode } from '#machines/protocol/common.js';
import { DEPOSIT_AMOUNT_CENTS } from '#machines/protocol/payment.js';
import { useFlowSnapshot } from '#web/lib/flows/use-server-flow.js';
import { useDisplayResult } from '../local-grading.js';
import { openCheckoutTab } from '../steps/next-steps/checkout-tab.js';
import { STEP_TITLES, stepTitle, topStep } from '../titles.js';
import { NoticeBox } from '../ui.js';
import {
  useCheckoutTabCleanup,
  useLeadSessionMemory,
  useLocalResultsNotice,
  useReopenAtPathEnd,
  useTestPaymentFlags,
  useUnshareFinished,
} from './flow-effects.js';
import { useLocalFallback } from './local-fallback.js';
import { usePublicConfig } from './public-config.js';
import { useRevealPause } from './reveal-pause.js';
import { StepScreen } from './step-screen.js';
import type { AssessmentFlow, Frame } from './types.js';

/**
 * The running flow in the modal's frame: the step's title, the connection's notices above the
 * step, and what the modal does beside the step (flow-effects, the local-fallback grading).
 */
export function FlowScreens({
  flow,
  actor,
  mode,
  frame,
  reopened,
}: {
  flow: AssessmentFlow;
  actor: Actor<typeof assessmentFlowMachine>;
  mode: FlowMode;
  frame: Frame;
  /** The modal opened on a flow this tab already had (closed and opened again, or reloaded). */
  reopened: boolean;
}) {
  const snapshot = useFlowSnapshot(actor);
  const { context } = snapshot;
  const step = topStep(snapshot.value);
  const state = statePath(snapshot.value);
  // the results wait a moment behind the processing notice, which says they are ready
  const revealing = useRevealPause(step);
  const config = usePublicConfig(step);
  const display = useDisplayResult(context);
  const depositCents = config?.depositCents ?? DEPOSIT_AMOUNT_CENTS;
  const { send } = flow;

  useLeadSessionMemory(context.session);
  useUnshareFinished(step, flow.held, mode);
  useLocalResultsNotice(step, display);
  // the server cannot grade (unreachable, or no result within the processing window): the policy machine grades here
  useLocalFallback(flow, state === 'processing.grading', context);
  useReopenAtPathEnd(reopened, { confirmed: flow.pending === 0, state, notice: context.notice, send });
  useCheckoutTabCleanup(step);
  useTestPaymentFlags(config?.paymentMode, {
    paymentIntentId: context.session.paymentIntentId,
    purpose: context.paymentPurpose,
    depositCents,
  });

  /** A deposit chosen in Stripe mode opens its tab within the click (a later one would be a blocked popup). */
  const choosePayment = (type: 'PAY_DEPOSIT' | 'PAY_FOR_HOMEWORK') => {
    if (send({ type }) && config?.paymentMode === 'stripe') openCheckoutTab();
  };

  const title = revealing
    ? STEP_TITLES.processing!
    : step === 'payment_success' && context.paymentPurpose === 'paid_homework'
      ? 'Payment Confirmed'
      : stepTitle(snapshot);
  return frame(
    title,
    <>
      {flow.offline && step !== 'processing' && !revealing && (
        <p role="status" className="mb-5 rounded-2xl border border-line bg-sand px-4 py-3 text-sm text-ink">
          The connection dropped. Your answers are kept on this device and will be sent as soon as it is back.
        </p>
      )}
      {flow.error && !flow.offline && (
        <NoticeBox className="mb-5" notice={{ title: null, description: 'Something went wrong. Please try again.' }} />
      )}
      <StepScreen
        flow={flow}
        mode={mode}
        step={step}
        state={state}
        revealing={revealing}
        context={context}
        display={display}
        config={config}
        depositCents={depositCents}
        onChoosePayment={choosePayment}
      />
    </>,
    step,
    {
      on: context.testingMode,
      switchable: context.session.leadId === null,
      set: (on) => send({ type: 'SET_TESTING_MODE', on }),
    },
  );
}
