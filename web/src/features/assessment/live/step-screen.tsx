import type { ReactNode } from 'react';
import type { AssessmentFlowContext } from '#machines/assessment-flow/assessment-flow.context.js';
import { resultTier } from '#machines/assessment-flow/assessment-flow.guards.js';
import { childFlowSlot } from '#machines/assessment-flow/child-flow-slot.js';
import type { FlowMode } from '#machines/protocol/common.js';
import type { PublicConfig } from '#web/lib/flows/client.js';
import { rememberedEmail, rememberEmail } from '#web/lib/browser-storage.js';
import type { useDisplayResult } from '../local-grading.js';
import { forgetEarlyCapture, submittedEarlyCapture } from '../early-capture.js';
import { CaptureStep } from '../steps/capture.js';
import { DiagnosticStep } from '../steps/diagnostic.js';
import { EmailCaptureStep } from '../steps/email-capture.js';
import { IntroStep } from '../steps/intro.js';
import { MirrorStep } from '../steps/mirror.js';
import { PaymentSuccessStep } from '../steps/next-steps/booking.js';
import { NoFlowStep } from '../steps/next-steps/community.js';
import { YesFlowStep } from '../steps/next-steps/deposit-offer.js';
import { MaybeFlowStep } from '../steps/next-steps/homework-offer.js';
import { HomeworkStep } from '../steps/next-steps/homework-sent.js';
import { PaymentStep } from '../steps/next-steps/payment.js';
import { GamingStep, ProcessingStep } from '../steps/processing.js';
import { CompletedResultsStep, flowReportUrl, ResultsStep } from '../steps/results.js';
import { SurveyStep } from '../steps/survey.js';
import { Waiting } from '../ui.js';
import type { AssessmentFlow } from './types.js';

/**
 * The step component for the flow's current step, given what it shows and the events it sends.
 * A step that needs the server's copy (a child flow, a result) waits until it is there.
 */
export function StepScreen({
  flow,
  mode,
  step,
  state,
  revealing = false,
  context,
  display,
  config,
  depositCents,
  onChoosePayment,
}: {
  flow: AssessmentFlow;
  mode: FlowMode;
  /** The top-level state ('processing'), and the full dotted path ('processing.grading'). */
  step: string;
  state: string;
  /** The flow has just reached its results, held a moment behind the processing notice (useRevealPause). */
  revealing?: boolean;
  context: AssessmentFlowContext;
  display: ReturnType<typeof useDisplayResult>;
  config: PublicConfig | null;
  depositCents: number;
  onChoosePayment: (type: 'PAY_DEPOSIT' | 'PAY_FOR_HOMEWORK') => void;
}): ReactNode {
  const { send } = flow;
  const flowId = flow.flowId!;
  const confirmed = flow.pending === 0;
  const viewResults = () => send({ type: 'VIEW_RESULTS' });
  const tier = context.result ? resultTier(context.result) : 'nurture';
  const visitor = { name: context.session.name, email: context.session.email };
  const waiting = <Waiting title="One moment" />;
  if (revealing) return <ProcessingStep revealing offline={flow.offline} />;

  switch (step) {
    case 'opening':
    case 'capture':
      return (
        <CaptureStep
          mode={mode}
          testing={context.testingMode}
          saving={state === 'capture.saving'}
          notice={context.notice}
          defaultEmail={rememberedEmail() ?? ''}
          early={mode === 'assessment' ? (submittedEarlyCapture()?.details ?? null) : null}
          sendEarly={state === 'capture.editing' && !submittedEarlyCapture()?.sent}
          onSubmit={({ name, email }) => {
            forgetEarlyCapture();
            rememberEmail(email);
            send({ type: 'CAPTURE_SUBMIT', name, email });
          }}
        />
      );
    case 'intro':
      return <IntroStep starting={!confirmed} onStart={() => send({ type: 'START_DIAGNOSTIC' })} />;
    case 'diagnostic':
      return flow.serverState === 'diagnostic' && confirmed ? (
        <DiagnosticStep
          slot={childFlowSlot({ flowId, context }, 'diagnostic')}
          testing={context.testingMode}
          onCompleted={(answers, diagnosticFlowId) => send({ type: 'DIAGNOSTIC_COMPLETED', answers, diagnosticFlowId })}
        />
      ) : (
        <Waiting title="Preparing your diagnostic" />
      );
    case 'mirror':
      return flow.serverState === 'mirror' && confirmed ? (
        <MirrorStep
          slot={childFlowSlot({ flowId, context }, 'mirror')}
          testing={context.testingMode}
          onCompleted={(handover) => send({ type: 'MIRROR_COMPLETED', ...handover })}
        />
      ) : (
        <Waiting title="Opening the Mirror" />
      );
    case 'survey':
      return <SurveyStep initial={context.survey} onSubmit={(answers) => send({ type: 'SURVEY_SUBMITTED', answers })} />;
    case 'email_capture':
      return (
        <EmailCaptureStep
          session={context.session}
          notice={context.notice}
          saving={state === 'email_capture.saving'}
          canSkip={!context.session.surveyCompleted}
          onSubmit={({ email, name }) => {
            rememberEmail(email);
            send({ type: 'EMAIL_SUBMIT', email, name });
          }}
          onEdited={() => send({ type: 'EMAIL_EDITED' })}
          onSkip={() => send({ type: 'CONTINUE_WITHOUT_SAVING' })}
        />
      );
    case 'processing':
      return <ProcessingStep revealing={false} offline={flow.offline} />;
    case 'gaming_detected':
      return <GamingStep notice={context.notice} onRetake={() => send({ type: 'RETAKE' })} />;
    case 'results':
      return display.result && !display.pending ? (
        <ResultsStep
          result={display.result}
          tier={tier}
          localNotice={display.result.fallback}
          held={flow.held}
          report={display.result.fallback ? null : flowReportUrl(flowId)}
          unconfirmedEmail={context.session.addressUnconfirmed ? context.session.email : undefined}
          onContinue={() => send({ type: 'CONTINUE' })}
        />
      ) : (
        waiting
      );
    case 'completed_results':
      return context.result ? (
        <CompletedResultsStep
          result={context.result}
          tier={tier}
          path={context.completedPath}
          email={context.session.email}
          testing={context.testingMode}
          unconfirmed={context.session.addressUnconfirmed === true}
          report={context.result.fallback ? null : flowReportUrl(flowId)}
          onContinue={() => send({ type: 'CONTINUE' })}
          onRetake={() => send({ type: 'RETAKE' })}
        />
      ) : (
        waiting
      );
    case 'yes_flow':
      return (
        <YesFlowStep
          notice={context.notice}
          depositCents={depositCents}
          onPay={() => onChoosePayment('PAY_DEPOSIT')}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
    case 'maybe_flow':
      return (
        <MaybeFlowStep
          notice={context.notice}
          testing={context.testingMode}
          depositCents={depositCents}
          onPay={() => onChoosePayment('PAY_FOR_HOMEWORK')}
          onFree={() => send({ type: 'CHOOSE_FREE_RESOURCES' })}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
    case 'no_flow':
      return (
        <NoFlowStep
          joined={state === 'no_flow.joined'}
          onJoin={() => send({ type: 'JOIN_COMMUNITY' })}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
          onViewResults={viewResults}
        />
      );
    case 'payment':
      return (
        <PaymentStep
          checkoutUrl={context.checkoutUrl}
          purpose={context.paymentPurpose ?? 'deposit'}
          paymentMode={config?.paymentMode ?? null}
          onCancel={() => send({ type: 'PAYMENT_CANCELED' })}
        />
      );
    case 'payment_success':
      return (
        <PaymentSuccessStep
          purpose={context.paymentPurpose}
          booking={state === 'payment_success.booked' ? 'booked' : state === 'payment_success.booking_opened' ? 'opened' : 'none'}
          refunded={context.completedPath?.kind === 'deposit_paid' && context.completedPath.refunded === true}
          testing={context.testingMode}
          notice={context.notice}
          visitor={visitor}
          depositCents={depositCents}
          bookingUrl={config?.bookingUrl ?? null}
          flowId={flowId}
          onBook={() => send({ type: 'BOOK_SESSION' })}
          onViewResults={viewResults}
        />
      );
    case 'homework_processing':
      return (
        <HomeworkStep
          sent={state === 'homework_processing.sent'}
          email={context.session.email}
          testing={context.testingMode}
          onViewResults={viewResults}
        />
      );
    default:
      return waiting;
  }
}
