import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise, type Actor } from 'xstate';
import { Button, useToast } from '../../components/ui/index.js';
import { resultTier, type assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { localFallbackMachine } from '#machines/local-fallback/local-fallback.machine.js';
import { statePath } from '#machines/protocol/can-accept.js';
import type { FlowMode } from '#machines/protocol/common.js';
import { DEPOSIT_AMOUNT_CENTS } from '#machines/protocol/payment.js';
import type { FlowStartInput, PublicConfig, ServerFlow } from '../../lib/flows/client.js';
import { FlowIdStore, removeWithPrefix, sessionStore } from '../../lib/flows/storage.js';
import { sharedFlowClient, useFlowSnapshot, useServerFlow, type ServerFlowHandle } from '../../lib/flows/use-server-flow.js';
import { flowSlot, recordTestPayment, rememberedEmail, rememberEmail, rememberLeadSession } from './browser-storage.js';
import { gradeLocally, useDisplayResult } from './local-grading.js';
import { browserAssessmentFlow } from './machines.js';
import { CaptureStep } from './steps/capture.js';
import { DiagnosticStep } from './steps/diagnostic.js';
import { EmailCaptureStep } from './steps/email-capture.js';
import { IntroStep } from './steps/intro.js';
import { MirrorStep } from './steps/mirror.js';
import {
  closeUnusedCheckoutTab,
  HomeworkStep,
  MaybeFlowStep,
  NoFlowStep,
  openCheckoutTab,
  PaymentStep,
  PaymentSuccessStep,
  YesFlowStep,
} from './steps/next-steps.js';
import { GamingStep, ProcessingStep } from './steps/processing.js';
import { CompletedResultsStep, LOCAL_RESULTS_NOTICE, ResultsStep } from './steps/results.js';
import { SurveyStep } from './steps/survey.js';
import { stepTitle, topStep } from './titles.js';
import { NoticeBox, Waiting } from './ui.js';

type AssessmentMachine = ReturnType<typeof browserAssessmentFlow>;
type AssessmentFlow = ServerFlowHandle<AssessmentMachine>;

/** Renders the frame of the modal: a title and a body. */
export type Frame = (title: string, body: React.ReactNode, step: string) => React.ReactNode;

/**
 * The modal's server-run assessment: the shared assessmentFlow machine kept in step with the
 * server by useServerFlow, each state shown by its step component. A returning visitor's flow
 * opens at completed_results: the server found their completed assessment.
 */
export function LiveAssessment({
  mode,
  resume,
  start,
  sessionKey,
  frame,
}: {
  mode: FlowMode;
  resume: string | null;
  start: FlowStartInput;
  sessionKey: string;
  frame: Frame;
}) {
  const ids = useMemo(() => new FlowIdStore(), []);
  const [savedAnswers] = useState(() => tabSavedAnswers(ids, resume));
  const machine = useMemo(() => browserAssessmentFlow(savedAnswers), [savedAnswers]);
  const flow = useServerFlow('assessmentFlow', machine, {
    flowId: resume,
    start,
    sessionKey,
    onFlowId: (flowId) => {
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
      ids.forgetAll(`child:${flowId}:diagnostic:`);
      removeWithPrefix(sessionStore(), 'hf:shown:');
    },
  };
}

/** Where a path ends: reopened there, the modal shows the results again with it (VIEW_RESULTS). */
const PATH_ENDS = new Set(['payment_success.confirmed', 'payment_success.booked', 'homework_processing.sent', 'no_flow.joined']);

function FlowScreens({
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
  const flowId = flow.flowId!;
  const client = sharedFlowClient();
  const { toast } = useToast();
  const [config, setConfig] = useState<PublicConfig | null>(null);
  const display = useDisplayResult(context);
  const confirmed = flow.pending === 0;

  useEffect(() => {
    let live = true;
    client.config().then(
      (answer) => live && setConfig(answer),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);

  // the lead session, per tab, once there is a lead
  useEffect(() => {
    if (context.session.leadId) rememberLeadSession(context.session);
  }, [context.session]);

  // a finished assessment is no longer offered to new tabs: the server opens them at completed_results instead
  const ids = useMemo(() => new FlowIdStore(), []);
  useEffect(() => {
    if (step === 'results' && !flow.held) ids.unshare(flowSlot(mode));
  }, [step, flow.held, ids, mode]);

  // Results graded in the browser are announced, once
  const announced = useRef(false);
  useEffect(() => {
    if (step === 'results' && display.result?.fallback && !display.pending && !announced.current) {
      announced.current = true;
      toast({ ...LOCAL_RESULTS_NOTICE });
    }
  }, [step, display.result, display.pending, toast]);

  // the server cannot grade (unreachable, or no result within the processing window): the policy machine grades here
  useLocalFallback(flow, state === 'processing.grading', context);

  const send = flow.send;
  const viewResults = () => send({ type: 'VIEW_RESULTS' });

  // reopened where a path ended (and no message waits there): the results again, with that path's state
  const reopening = useRef(reopened);
  useEffect(() => {
    if (!reopening.current || !confirmed) return;
    reopening.current = false;
    if (PATH_ENDS.has(state) && !context.notice) send({ type: 'VIEW_RESULTS' });
  }, [confirmed, state, context.notice, send]);
  const tier = context.result ? resultTier(context.result) : 'nurture';
  const visitor = { name: context.session.name, email: context.session.email };
  const depositCents = config?.depositCents ?? DEPOSIT_AMOUNT_CENTS;
  const waiting = <Waiting title="One moment" />;

  // a blank checkout tab opened by the deposit click goes once the flow has left payment without a checkout url
  useEffect(() => {
    if (step !== 'payment') closeUnusedCheckoutTab();
  }, [step]);

  // The test payment sets local flags (once the server has confirmed it)
  const { paymentIntentId } = context.session;
  const { paymentPurpose } = context;
  useEffect(() => {
    if (config?.paymentMode === 'test' && paymentIntentId && paymentPurpose)
      recordTestPayment({ paymentIntentId, purpose: paymentPurpose, amountCents: depositCents });
  }, [config?.paymentMode, paymentIntentId, paymentPurpose, depositCents]);

  /** A deposit chosen in Stripe mode opens its tab within the click (a later one would be a blocked popup). */
  const choosePayment = (type: 'PAY_DEPOSIT' | 'PAY_FOR_HOMEWORK') => {
    if (send({ type }) && config?.paymentMode === 'stripe') openCheckoutTab();
  };

  let body: React.ReactNode;
  switch (step) {
    case 'opening':
    case 'capture':
      body = (
        <CaptureStep
          mode={mode}
          saving={state === 'capture.saving'}
          notice={context.notice}
          defaultEmail={rememberedEmail() ?? ''}
          onSubmit={({ name, email }) => {
            rememberEmail(email);
            send({ type: 'CAPTURE_SUBMIT', name, email });
          }}
        />
      );
      break;
    case 'intro':
      body = <IntroStep starting={!confirmed} onStart={() => send({ type: 'START_DIAGNOSTIC' })} />;
      break;
    case 'diagnostic':
      body =
        flow.serverState === 'diagnostic' && confirmed ? (
          <DiagnosticStep
            parentFlowId={flowId}
            parentVersion={flow.version!}
            onCompleted={(answers, diagnosticFlowId) => send({ type: 'DIAGNOSTIC_COMPLETED', answers, diagnosticFlowId })}
          />
        ) : (
          <Waiting title="Preparing your diagnostic" />
        );
      break;
    case 'mirror':
      body =
        flow.serverState === 'mirror' && confirmed ? (
          <MirrorStep
            parentFlowId={flowId}
            parentVersion={flow.version!}
            onCompleted={(handover) => send({ type: 'MIRROR_COMPLETED', ...handover })}
          />
        ) : (
          <Waiting title="Opening the Mirror" />
        );
      break;
    case 'survey':
      body = <SurveyStep initial={context.survey} onSubmit={(answers) => send({ type: 'SURVEY_SUBMITTED', answers })} />;
      break;
    case 'email_capture':
      body = (
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
      break;
    case 'processing':
      body = <ProcessingStep revealing={state === 'processing.revealing'} offline={flow.offline} />;
      break;
    case 'gaming_detected':
      body = <GamingStep notice={context.notice} onRetake={() => send({ type: 'RETAKE' })} />;
      break;
    case 'results':
      body =
        display.result && !display.pending ? (
          <ResultsStep
            result={display.result}
            tier={tier}
            localNotice={display.result.fallback}
            held={flow.held}
            onContinue={() => send({ type: 'CONTINUE' })}
          />
        ) : (
          waiting
        );
      break;
    case 'completed_results':
      body = context.result ? (
        <CompletedResultsStep
          result={context.result}
          tier={tier}
          path={context.completedPath}
          email={context.session.email}
          onContinue={() => send({ type: 'CONTINUE' })}
          onRetake={() => send({ type: 'RETAKE' })}
        />
      ) : (
        waiting
      );
      break;
    case 'yes_flow':
      body = (
        <YesFlowStep
          notice={context.notice}
          depositCents={depositCents}
          onPay={() => choosePayment('PAY_DEPOSIT')}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
      break;
    case 'maybe_flow':
      body = (
        <MaybeFlowStep
          notice={context.notice}
          depositCents={depositCents}
          onPay={() => choosePayment('PAY_FOR_HOMEWORK')}
          onFree={() => send({ type: 'CHOOSE_FREE_RESOURCES' })}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
      break;
    case 'no_flow':
      body = (
        <NoFlowStep
          joined={state === 'no_flow.joined'}
          onJoin={() => send({ type: 'JOIN_COMMUNITY' })}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
          onViewResults={viewResults}
        />
      );
      break;
    case 'payment':
      body = (
        <PaymentStep
          checkoutUrl={context.checkoutUrl}
          purpose={context.paymentPurpose ?? 'deposit'}
          paymentMode={config?.paymentMode ?? null}
          onCancel={() => send({ type: 'PAYMENT_CANCELED' })}
        />
      );
      break;
    case 'payment_success':
      body = (
        <PaymentSuccessStep
          purpose={context.paymentPurpose}
          booked={state === 'payment_success.booked'}
          notice={context.notice}
          visitor={visitor}
          depositCents={depositCents}
          bookingUrl={config?.bookingUrl ?? null}
          onBook={() => send({ type: 'BOOK_SESSION' })}
          onViewResults={viewResults}
        />
      );
      break;
    case 'homework_processing':
      body = <HomeworkStep sent={state === 'homework_processing.sent'} email={context.session.email} onViewResults={viewResults} />;
      break;
    default:
      body = waiting;
  }

  const title = step === 'payment_success' && context.paymentPurpose === 'paid_homework' ? 'Payment Confirmed' : stepTitle(snapshot);
  return frame(
    title,
    <>
      {flow.offline && step !== 'processing' && (
        <p role="status" className="mb-5 rounded-2xl border border-line bg-sand px-4 py-3 text-sm text-ink">
          The connection dropped. Your answers are kept on this device and will be sent as soon as it is back.
        </p>
      )}
      {flow.error && !flow.offline && (
        <NoticeBox className="mb-5" notice={{ title: null, description: 'Something went wrong. Please try again.' }} />
      )}
      {body}
    </>,
    step,
  );
}

/** The server's copy has not graded the answers yet: a locally graded result stays on screen meanwhile. */
const serverIsBehind = (server: ServerFlow) =>
  server.state === 'survey' || server.state.startsWith('processing') || server.state.startsWith('email_capture');

/** The local-fallback policy grading `latest.context` and showing the result through `latest.applyLocal`. */
function localFallbackPolicy(latest: {
  current: { context: Parameters<typeof gradeLocally>[0]; applyLocal: AssessmentFlow['applyLocal'] };
}) {
  return localFallbackMachine.provide({
    actors: { gradeLocally: fromPromise(() => gradeLocally(latest.current.context)) },
    actions: { showLocalResult: (_, { result }) => void latest.current.applyLocal({ type: 'GRADED', result }, serverIsBehind) },
  });
}

/**
 * Runs the local-fallback policy (machines/local-fallback) beside the flow: told when the local
 * copy waits for grading and whether the server can be reached, it grades in the browser when the
 * server cannot. The result goes to the local copy only, held while the server is
 * behind; the survey is still sent as soon as the server answers, so the flow is graded there
 * too, and once it is, the server's result is the one shown.
 */
function useLocalFallback(flow: AssessmentFlow, grading: boolean, context: Parameters<typeof gradeLocally>[0]) {
  // what the policy's actor and action read when they run: the flow as of the latest render
  const latest = useRef({ context, applyLocal: flow.applyLocal });
  useEffect(() => {
    latest.current = { context, applyLocal: flow.applyLocal };
  });
  // eslint-disable-next-line react-hooks/refs -- the machine only keeps its actor and action; they read the ref when they run, never during render
  const machine = useMemo(() => localFallbackPolicy(latest), []);
  const policy = useActorRef(machine);
  useEffect(() => {
    policy.send({ type: 'FLOW_CHANGED', grading, offline: flow.offline });
  }, [policy, grading, flow.offline]);
}
