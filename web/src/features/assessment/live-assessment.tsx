import { useEffect, useMemo, useRef, useState } from 'react';
import type { Actor } from 'xstate';
import { Button, useToast } from '../../components/ui';
import { resultTier, type assessmentFlowMachine } from '../../../../machines/assessment-flow/assessment-flow.machine';
import { DEPOSIT_AMOUNT_CENTS } from '../../../../machines/payment/payment.machine';
import { statePath } from '../../../../machines/protocol/can-accept';
import type { FlowMode } from '../../../../machines/protocol/common';
import type { FlowStartInput, PublicConfig, ServerFlow } from '../../lib/flows/client';
import { FlowIdStore, localStore, removeWithPrefix, safeRemove, safeSet, sessionStore } from '../../lib/flows/storage';
import { sharedFlowClient, useFlowSnapshot, useServerFlow, type ServerFlowHandle } from '../../lib/flows/use-server-flow';
import { clearStoredAssessment, rememberedEmail, rememberEmail, rememberLeadSession, storeAssessment } from './browser-storage';
import { gradeLocally, isCanned, useDisplayResult } from './local-grading';
import { browserAssessmentFlow } from './machines';
import { CaptureStep } from './steps/capture';
import { DiagnosticStep } from './steps/diagnostic';
import { EmailCaptureStep } from './steps/email-capture';
import { IntroStep } from './steps/intro';
import { MirrorStep } from './steps/mirror';
import { HomeworkStep, MaybeFlowStep, NoFlowStep, openCheckoutTab, PaymentStep, PaymentSuccessStep, YesFlowStep } from './steps/next-steps';
import { GamingStep, ProcessingStep } from './steps/processing';
import { LOCAL_RESULTS_NOTICE, ResultsStep } from './steps/results';
import { SurveyStep } from './steps/survey';
import { stepTitle, topStep } from './titles';
import { NoticeBox, Waiting } from './ui';

type AssessmentMachine = ReturnType<typeof browserAssessmentFlow>;
type AssessmentFlow = ServerFlowHandle<AssessmentMachine>;

/** The longest the processing notice promises (spec section 2: up to 3 minutes); after it the browser grades. */
export const PROCESSING_WINDOW_MS = 3 * 60 * 1000;
/** How long an unreachable server is waited for at processing before the browser grades. */
export const OFFLINE_GRACE_MS = 8000;

/** The slot a mode's assessment flow is kept under (FlowIdStore). */
export const flowSlot = (mode: FlowMode) => `assessment:${mode}`;

/** Renders the frame of the modal: a title and a body. */
export type Frame = (title: string, body: React.ReactNode, step: string) => React.ReactNode;

/**
 * The modal's server-run assessment: the shared assessmentFlow machine kept in step with the
 * server by useServerFlow, each state shown by its step component.
 */
export function LiveAssessment({
  mode,
  resume,
  start,
  sessionKey,
  afterResume,
  frame,
}: {
  mode: FlowMode;
  resume: string | null;
  start: FlowStartInput;
  sessionKey: string;
  /** An event to send once the resumed flow stands where it takes it (CONTINUE from stored results). */
  afterResume: 'CONTINUE' | null;
  frame: Frame;
}) {
  const ids = useMemo(() => new FlowIdStore(), []);
  const flowIdRef = useRef<string | null>(resume);
  // the browser-storage actions; run for local transitions, and (results) by the effect below for pushed ones
  const machine = useMemo(
    () =>
      browserAssessmentFlow({
        storeResult: ({ result, tier }) => storeAssessment({ result, tier, flowId: flowIdRef.current }),
        clearStoredAssessment: () => clearStoredAssessment(),
        clearSavedAnswers: () => {
          const flowId = flowIdRef.current;
          if (!flowId) return;
          ids.forgetAll(`child:${flowId}:diagnostic:`);
          removeWithPrefix(sessionStore(), 'hf:shown:');
        },
      }),
    [ids],
  );
  const flow = useServerFlow('assessmentFlow', machine, {
    flowId: resume,
    start,
    sessionKey,
    onFlowId: (flowId) => {
      flowIdRef.current = flowId;
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
  return <FlowScreens flow={flow} actor={flow.actor} mode={mode} afterResume={afterResume} frame={frame} />;
}

function FlowScreens({
  flow,
  actor,
  mode,
  afterResume,
  frame,
}: {
  flow: AssessmentFlow;
  actor: Actor<typeof assessmentFlowMachine>;
  mode: FlowMode;
  afterResume: 'CONTINUE' | null;
  frame: Frame;
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
    client.config().then((answer) => live && setConfig(answer), () => {});
    return () => {
      live = false;
    };
  }, [client]);

  // the lead session, per tab, once there is a lead
  useEffect(() => {
    if (context.session.leadId) rememberLeadSession(context.session);
  }, [context.session]);

  // storeResult for results that arrived from the server (its timer moves the flow to results, so the local entry action never runs)
  const ids = useMemo(() => new FlowIdStore(), []);
  useEffect(() => {
    if (step !== 'results' || !display.result || display.pending || !context.result) return;
    storeAssessment({ result: display.result, tier: resultTier(context.result), flowId });
    // a finished assessment is no longer offered to new tabs: they show the stored results instead
    ids.unshare(flowSlot(mode));
  }, [step, display.result, display.pending, context.result, flowId, ids, mode]);

  // spec section 8: results graded in the browser are announced, once
  const announced = useRef(false);
  useEffect(() => {
    if (step === 'results' && display.result?.fallback && !display.pending && !announced.current) {
      announced.current = true;
      toast({ ...LOCAL_RESULTS_NOTICE });
    }
  }, [step, display.result, display.pending, toast]);

  // the server's grading failed (canned result): send the answers again by name, so the lead is
  // not lost; once per flow, in whichever tab shows the results first
  useEffect(() => {
    if (!context.result || !isCanned(context.result) || !context.session.leadId || step !== 'results') return;
    const sentKey = `hf:resubmitted:${flowId}`;
    if (localStore().getItem(sentKey)) return;
    safeSet(localStore(), sentKey, new Date().toISOString());
    const { session } = context;
    void client
      .resubmitAssessment({
        leadId: session.leadId,
        email: session.email,
        name: session.name,
        assessment: context.answers,
        survey: context.survey,
        mirrorChat: context.mirrorChat,
        mirrorSessionId: session.mirrorSessionId,
        source: session.source,
        timestamp: new Date().toISOString(),
      })
      .catch(() => safeRemove(localStore(), sentKey));
  }, [context, step, client, flowId]);

  // the server cannot grade (unreachable, or no result within the processing window): grade here
  useLocalFallback(flow, state, context);

  // stored results' "next step" continues on the flow they came from
  const continued = useRef(false);
  useEffect(() => {
    if (!afterResume || continued.current || flow.serverState !== 'results' || !confirmed) return;
    continued.current = true;
    flow.send({ type: afterResume });
  }, [afterResume, flow, confirmed]);

  const send = flow.send;
  const tier = context.result ? resultTier(context.result) : 'nurture';
  const visitor = { name: context.session.name, email: context.session.email };
  const depositCents = config?.depositCents ?? DEPOSIT_AMOUNT_CENTS;
  const waiting = <Waiting title="One moment" />;

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
          <MirrorStep parentFlowId={flowId} parentVersion={flow.version!} onCompleted={({ sessionId, chat }) => send({ type: 'MIRROR_COMPLETED', sessionId, chat })} />
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
      body = display.result && !display.pending ? (
        <ResultsStep result={display.result} tier={tier} localNotice={display.result.fallback} held={flow.held} onContinue={() => send({ type: 'CONTINUE' })} />
      ) : (
        waiting
      );
      break;
    case 'yes_flow':
      body = (
        <YesFlowStep
          notice={context.notice}
          depositCents={depositCents}
          onPay={() => {
            if (config?.paymentMode === 'stripe') openCheckoutTab();
            send({ type: 'PAY_DEPOSIT' });
          }}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
      break;
    case 'maybe_flow':
      body = (
        <MaybeFlowStep
          notice={context.notice}
          depositCents={depositCents}
          onPay={() => {
            if (config?.paymentMode === 'stripe') openCheckoutTab();
            send({ type: 'PAY_FOR_HOMEWORK' });
          }}
          onFree={() => send({ type: 'CHOOSE_FREE_RESOURCES' })}
          onBack={() => send({ type: 'BACK_TO_RESULTS' })}
        />
      );
      break;
    case 'no_flow':
      body = <NoFlowStep joined={state === 'no_flow.joined'} onJoin={() => send({ type: 'JOIN_COMMUNITY' })} onBack={() => send({ type: 'BACK_TO_RESULTS' })} />;
      break;
    case 'payment':
      body = (
        <PaymentStep
          client={client}
          flowId={flowId}
          ready={flow.serverState === 'payment' && confirmed}
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
        />
      );
      break;
    case 'homework_processing':
      body = <HomeworkStep sent={state === 'homework_processing.sent'} email={context.session.email} />;
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
      {flow.error && !flow.offline && <NoticeBox className="mb-5" notice={{ title: null, description: 'Something went wrong. Please try again.' }} />}
      {body}
    </>,
    step,
  );
}

/**
 * Grades in the browser when the server cannot (spec section 8): the survey could not be sent for
 * OFFLINE_GRACE_MS, or no result came within PROCESSING_WINDOW_MS. The result is applied to the
 * local copy only; the screen keeps it while the server is still behind (survey or processing),
 * and the survey is sent by the session as soon as the server answers, so the lead is graded
 * there too and its result, once shown, is the server's.
 */
function useLocalFallback(flow: AssessmentFlow, state: string, context: Parameters<typeof gradeLocally>[0]) {
  const grading = state === 'processing.grading';
  const { offline, applyLocal } = flow;
  const [reason, setReason] = useState<'offline' | 'slow' | null>(null);
  useEffect(() => {
    if (!grading) return setReason(null);
    const slow = window.setTimeout(() => setReason('slow'), PROCESSING_WINDOW_MS);
    return () => window.clearTimeout(slow);
  }, [grading]);
  useEffect(() => {
    if (!grading || !offline) return;
    const timer = window.setTimeout(() => setReason('offline'), OFFLINE_GRACE_MS);
    return () => window.clearTimeout(timer);
  }, [grading, offline]);
  const applied = useRef(false);
  useEffect(() => {
    if (!grading || !reason || applied.current) return;
    applied.current = true;
    void gradeLocally(context).then((result) => {
      const behind = (server: ServerFlow) => server.state === 'survey' || server.state.startsWith('processing') || server.state.startsWith('email_capture');
      if (!applyLocal({ type: 'GRADED', result }, behind)) applied.current = false;
    });
  }, [grading, reason, context, applyLocal]);
}
