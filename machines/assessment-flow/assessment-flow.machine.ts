import { and, assign, enqueueActions, not, setup } from 'xstate';
import { effect } from '../effect.js';
import { qualificationSurvey } from '../content/index.js';
import { GAMING_MESSAGE } from '../grading/gaming.js';
import { outcomeFor } from '../grading/outcome.js';
import {
  assessmentFlowInputSchema,
  type AssessmentFlowEvent,
  type AssessmentFlowInput,
  type CompletedPath,
  type FlowResult,
  type HomeworkSource,
} from '../protocol/assessment-flow.js';
import {
  hasText,
  isSimpleEmail,
  type DiagnosticAnswers,
  type FlowMode,
  type LeadSession,
  type LeadSource,
  type MirrorTurn,
  type Notice,
  type SurveyAnswers,
  type Tier,
} from '../protocol/common.js';
import { paymentFailureNotices, type PaymentFailureReason, type PaymentPurpose } from '../protocol/payment.js';

/** How long the processing notice stays after grading before the results show. */
export const RESULTS_DELAY_MS = 1000;

/** The name a community visitor gets when they leave it empty. */
export const COMMUNITY_MEMBER_NAME = 'Community Member';

/** The flow's own messages, word for word from the product copy. */
export const assessmentFlowNotices = {
  captureFailed: { title: 'Error', description: 'Failed to start assessment. Please try again.' },
  emailCaptureFailed: { title: null, description: 'Something went wrong. Please try again.' },
  invalidEmail: { title: null, description: 'Please enter a valid email address' },
  nameRequired: { title: null, description: 'Please enter your name' },
  noLeadId: { title: null, description: 'No lead ID found. Please complete email capture first.' },
  paidHomeworkFailed: {
    title: 'Payment Confirmed',
    description: 'Payment successful but failed to send homework. Please contact support.',
  },
  freeResourcesFailed: { title: null, description: 'Failed to send resources. Please try again.' },
} as const satisfies Record<string, Notice>;

/** What the assessment flow holds: the lead session and the journey so far. */
export interface AssessmentFlowContext {
  mode: FlowMode;
  testingMode: boolean;
  session: LeadSession;
  answers: DiagnosticAnswers;
  survey: SurveyAnswers;
  mirrorChat: MirrorTurn[];
  result: FlowResult | null;
  paymentPurpose: PaymentPurpose | null;
  /** The hosted checkout the server opened for the current payment attempt (Stripe mode), once it has. */
  checkoutUrl: string | null;
  homeworkSource: HomeworkSource | null;
  /** Where the path ended after the results (deposit paid, homework sent, community joined), once it has. */
  completedPath: CompletedPath | null;
  /** The standalone diagnostic whose answers this flow took instead of running its own, if any. */
  standaloneDiagnosticId: string | null;
  /** The message the current screen shows, if any. */
  notice: Notice | null;
}

/** What `createLead` is asked to save; the lead service returns an existing lead for a known email. */
export interface LeadRequest {
  email: string;
  name: string;
  source: LeadSource;
  leadToken: string | null;
  testingMode: boolean;
}

/** The lead-assessment payload, less the timestamp the effect adds. */
export interface GradingRequest {
  leadId: string;
  email: string | null;
  name: string | null;
  source: LeadSource;
  assessment: DiagnosticAnswers;
  survey: SurveyAnswers;
  mirrorChat: MirrorTurn[];
  mirrorSessionId: string | null;
  testingMode: boolean;
  /** The standalone diagnostic the answers came from: its report then shows this assessment. */
  diagnosticId: string | null;
}

/**
 * What `sendResults` is asked to email: the result the capture step promised ("We will send your
 * results to this address"), to the lead's stored address. Never for a testing-mode flow.
 */
export interface ResultsEmailRequest {
  leadId: string;
  result: FlowResult;
}

/** What `sendReceipt` is asked to email: the receipt the deposit screen promises. */
export interface ReceiptRequest {
  leadId: string;
  paymentIntentId: string;
}

/** What `startPayment` is asked to start. */
export interface PaymentRequest {
  purpose: PaymentPurpose;
  leadId: string | null;
  email: string | null;
}

/** The send-homework payload. */
export interface HomeworkRequest {
  leadId: string | null;
  email: string | null;
  name: string | null;
  sendHomework: boolean;
  source: HomeworkSource;
  diagnosticData: FlowResult | null;
}

/** The survey's required questions left unanswered (q1 to q5), in survey order. */
export function missingSurveyAnswers(answers: SurveyAnswers): string[] {
  return qualificationSurvey.questions
    .filter((question) => {
      if (!question.required) return false;
      const answer = answers[question.id] ?? '';
      return question.kind === 'choice' ? !question.options.some((o) => o.id === answer) : !hasText(answer);
    })
    .map((question) => question.id);
}

/** The next-step tier of a result. */
export function resultTier(result: FlowResult): Tier {
  return outcomeFor(result.qualification);
}

const blankSession: LeadSession = {
  source: 'direct',
  leadToken: null,
  leadId: null,
  email: null,
  name: null,
  assessmentCompleted: false,
  surveyCompleted: false,
  mirrorSessionId: null,
  paymentIntentId: null,
};

function openingSession(input: ReturnType<typeof assessmentFlowInputSchema.parse>): LeadSession {
  const { token, knownSession, communityReferral } = input;
  if (token?.status === 'valid') {
    const { source, leadId, email, name } = token;
    return { ...blankSession, source, leadToken: token.token, leadId, email, name };
  }
  // A link whose token failed takes the normal capture path, whatever else is known.
  if (token?.status === 'invalid') return blankSession;
  if (knownSession) return { ...blankSession, ...knownSession };
  return communityReferral ? { ...blankSession, source: 'community' } : blankSession;
}

function requireLeadId(context: AssessmentFlowContext): string {
  // Processing is entered only with a lead id: the survey routes to email capture without one.
  if (!context.session.leadId) throw new Error('No lead ID found. Please complete email capture first.');
  return context.session.leadId;
}

// Only the types of these values matter: setup() infers the machine's context, events and input from
// them (written inline, the `{} as` would read as redundant where the type is inferred).
const flowTypes = {
  context: {} as AssessmentFlowContext,
  events: {} as AssessmentFlowEvent,
  input: {} as AssessmentFlowInput,
};

const flowSetup = setup({
  types: flowTypes,
  actions: {
    createLead: effect<LeadRequest>(),
    requestGrading: effect<GradingRequest>(),
    startPayment: effect<PaymentRequest>(),
    sendHomework: effect<HomeworkRequest>(),
    sendResults: effect<ResultsEmailRequest>(),
    sendReceipt: effect<ReceiptRequest>(),
    clearStoredAssessment: () => {},
    clearSavedAnswers: () => {},
    setNotice: assign((_, notice: Notice) => ({ notice })),
    clearNotice: assign({ notice: null }),
    takeCaptureDetails: assign({
      session: ({ context, event }) =>
        event.type === 'CAPTURE_SUBMIT' ? { ...context.session, name: event.name.trim(), email: event.email.trim() } : context.session,
    }),
    takeEmailDetails: assign({
      session: ({ context, event }) => {
        if (event.type !== 'EMAIL_SUBMIT') return context.session;
        const name = event.name.trim() || context.session.name || COMMUNITY_MEMBER_NAME;
        return { ...context.session, email: event.email.trim(), name };
      },
    }),
    takeLeadId: assign({
      session: ({ context, event }) => (event.type === 'LEAD_SAVED' ? { ...context.session, leadId: event.leadId } : context.session),
    }),
    takeMirror: assign(({ context, event }) =>
      event.type === 'MIRROR_COMPLETED'
        ? { mirrorChat: event.chat, session: { ...context.session, mirrorSessionId: event.sessionId } }
        : {},
    ),
    takeAnswers: assign(({ context, event }) =>
      event.type === 'DIAGNOSTIC_COMPLETED' ? { answers: event.answers, session: { ...context.session, assessmentCompleted: true } } : {},
    ),
    takeSurvey: assign(({ context, event }) =>
      event.type === 'SURVEY_SUBMITTED' ? { survey: event.answers, session: { ...context.session, surveyCompleted: true } } : {},
    ),
    takeResult: assign({ result: ({ context, event }) => (event.type === 'GRADED' ? event.result : context.result) }),
    takeGamingMessage: assign({
      notice: ({ event }) => ({
        title: null,
        description: (event.type === 'GRADED' && 'message' in event.result && event.result.message) || GAMING_MESSAGE,
      }),
    }),
    resetAnswers: assign(({ context }) => ({
      answers: {},
      survey: {},
      result: null,
      standaloneDiagnosticId: null,
      // a paid deposit stays paid whatever a retake shows; the other paths are chosen again
      completedPath: context.completedPath?.kind === 'deposit_paid' ? context.completedPath : null,
      session: { ...context.session, assessmentCompleted: false, surveyCompleted: false },
    })),
    completePath: assign((_, completedPath: CompletedPath) => ({ completedPath })),
    markBooked: assign(({ context }) =>
      context.completedPath?.kind === 'deposit_paid' ? { completedPath: { kind: 'deposit_paid' as const, booked: true } } : {},
    ),
    takeHomeworkSent: assign(({ context }) => ({
      completedPath: { kind: 'homework_sent' as const, source: context.homeworkSource ?? ('free_resources' as const) },
    })),
    choosePayment: assign((_, params: { purpose: PaymentPurpose }) => ({ paymentPurpose: params.purpose, checkoutUrl: null })),
    takeCheckoutUrl: assign({
      checkoutUrl: ({ context, event }) => (event.type === 'CHECKOUT_OPENED' ? event.url : context.checkoutUrl),
    }),
    chooseHomework: assign((_, params: { source: HomeworkSource }) => ({ homeworkSource: params.source })),
    takePaymentIntent: assign({
      session: ({ context, event }) =>
        event.type === 'PAYMENT_CONFIRMED' ? { ...context.session, paymentIntentId: event.paymentIntentId } : context.session,
    }),
    showPaymentFailure: assign({
      notice: ({ event }) => {
        const reason: PaymentFailureReason = event.type === 'PAYMENT_FAILED' ? event.reason : 'canceled';
        return paymentFailureNotices[reason];
      },
    }),
  },
  guards: {
    hasStoredResult: ({ context }) => context.result !== null,
    skipsCapture: ({ context }) => context.session.source !== 'direct' || context.session.leadId !== null,
    isMirrorMode: ({ context }) => context.mode === 'mirror',
    hasNameAndEmail: ({ event }) => event.type === 'CAPTURE_SUBMIT' && hasText(event.name) && hasText(event.email),
    hasUserTurn: ({ event }) => event.type === 'MIRROR_COMPLETED' && event.chat.some((turn) => turn.role === 'user'),
    hasEmail: ({ context }) => hasText(context.session.email ?? ''),
    hasAnswers: ({ event }) => event.type === 'DIAGNOSTIC_COMPLETED' && Object.keys(event.answers).length > 0,
    isSurveyComplete: ({ event }) => event.type === 'SURVEY_SUBMITTED' && missingSurveyAnswers(event.answers).length === 0,
    hasLeadId: ({ context }) => context.session.leadId !== null,
    isEmailInvalid: ({ event }) => event.type === 'EMAIL_SUBMIT' && !isSimpleEmail(event.email),
    isNameMissing: ({ context, event }) => event.type === 'EMAIL_SUBMIT' && context.session.source !== 'community' && !hasText(event.name),
    hasNotice: ({ context }) => context.notice !== null,
    isSurveyCompleted: ({ context }) => context.session.surveyCompleted,
    isGaming: ({ event }) =>
      event.type === 'GRADED' && 'gamingDetected' in event.result && Boolean(event.result.gamingDetected || event.result.requiresRetake),
    hasTier: ({ context }, params: { tier: Tier }) => context.result !== null && resultTier(context.result) === params.tier,
    isDepositPayment: ({ context }) => context.paymentPurpose === 'deposit',
    isPaidHomework: ({ context }) => context.homeworkSource === 'paid_homework',
    isStandaloneDiagnostic: ({ context }) => context.standaloneDiagnosticId !== null,
    hasPath: ({ context }, params: { kind: CompletedPath['kind']; booked?: boolean }) =>
      context.completedPath?.kind === params.kind &&
      (params.booked === undefined || (context.completedPath.kind === 'deposit_paid' && context.completedPath.booked === params.booked)),
  },
  delays: {
    resultsDelay: RESULTS_DELAY_MS,
  },
});

/**
 * CONTINUE from the results: a paid deposit goes back to its confirmation (never to a second
 * deposit), anything else to the tier's flow.
 */
const routeByTier = [
  { guard: { type: 'hasPath', params: { kind: 'deposit_paid', booked: true } }, target: '#assessmentFlow.payment_success.booked' },
  { guard: { type: 'hasPath', params: { kind: 'deposit_paid' } }, target: '#assessmentFlow.payment_success.confirmed' },
  { guard: { type: 'hasTier', params: { tier: 'book_call' } }, target: '#assessmentFlow.yes_flow' },
  { guard: { type: 'hasTier', params: { tier: 'homework' } }, target: '#assessmentFlow.maybe_flow' },
  { target: '#assessmentFlow.no_flow' },
] as const;

/** CONTINUE from results shown again: back to where the path ended, else as from fresh results. */
const routeToPath = [
  { guard: { type: 'hasPath', params: { kind: 'homework_sent' } }, target: '#assessmentFlow.homework_processing.sent' },
  { guard: { type: 'hasPath', params: { kind: 'community_joined' } }, target: '#assessmentFlow.no_flow.joined' },
  ...routeByTier,
] as const;

const createLead = {
  type: 'createLead',
  params: ({ context }: { context: AssessmentFlowContext }) => ({
    email: context.session.email ?? '',
    name: context.session.name ?? COMMUNITY_MEMBER_NAME,
    source: context.session.source,
    leadToken: context.session.leadToken,
    testingMode: context.testingMode,
  }),
} as const;

const paymentFailed = [
  { guard: 'isDepositPayment', target: '#assessmentFlow.yes_flow', actions: 'showPaymentFailure' },
  { target: '#assessmentFlow.maybe_flow', actions: 'showPaymentFailure' },
] as const;

/**
 * The assessment modal: the fifteen steps of the spec's table, plus the
 * transient `opening` decision and the `payment` wait between a deposit choice and its outcome.
 *
 * Effects are named actions with no-op defaults, and their outcomes are events (LEAD_SAVED, GRADED,
 * CHECKOUT_OPENED, PAYMENT_CONFIRMED, HOMEWORK_SENT and their failures), because the server runs
 * this machine with XState's pure transition functions, which never start invoked actors. The
 * server performs every effect (job rows, or writes in the event's own transaction) except
 * clearSavedAnswers, which forgets the browser tab's own copies. A completed assessment is shown
 * again at completed_results when the server opens a returning visitor's flow with it as
 * `storedResult`. The diagnostic and the Mirror chat run as their own machines and report here
 * once finished.
 */
export const assessmentFlowMachine = flowSetup.createMachine({
  id: 'assessmentFlow',
  context: ({ input }) => {
    const parsed = assessmentFlowInputSchema.parse(input);
    const showsStored = parsed.storedResult !== null && !parsed.testingMode && parsed.mode !== 'mirror';
    const standalone = showsStored ? null : parsed.standaloneDiagnostic;
    const session = openingSession(parsed);
    return {
      mode: parsed.mode,
      testingMode: parsed.testingMode,
      session: standalone ? { ...session, assessmentCompleted: true } : session,
      answers: standalone?.answers ?? {},
      survey: {},
      mirrorChat: [],
      result: showsStored ? parsed.storedResult : null,
      paymentPurpose: null,
      checkoutUrl: null,
      homeworkSource: null,
      completedPath: showsStored ? parsed.storedPath : null,
      standaloneDiagnosticId: standalone?.id ?? null,
      notice: null,
    };
  },
  initial: 'opening',
  states: {
    opening: {
      entry: enqueueActions(({ context, enqueue }) => {
        if (context.testingMode) enqueue('clearStoredAssessment');
      }),
      always: [
        { guard: 'hasStoredResult', target: 'completed_results' },
        // the diagnostic was done on the standalone page: the qualification survey finishes it
        { guard: 'isStandaloneDiagnostic', target: 'survey' },
        { guard: and(['skipsCapture', 'isMirrorMode']), target: 'mirror' },
        { guard: 'skipsCapture', target: 'diagnostic' },
        { target: 'capture' },
      ],
    },
    capture: {
      meta: { title: 'Welcome' },
      initial: 'editing',
      states: {
        editing: {
          exit: 'clearNotice',
          on: { CAPTURE_SUBMIT: { guard: 'hasNameAndEmail', target: 'saving', actions: 'takeCaptureDetails' } },
        },
        saving: {
          entry: createLead,
          on: {
            LEAD_SAVED: [
              { guard: 'isMirrorMode', target: '#assessmentFlow.mirror', actions: 'takeLeadId' },
              { target: '#assessmentFlow.intro', actions: 'takeLeadId' },
            ],
            LEAD_FAILED: {
              target: 'editing',
              actions: { type: 'setNotice', params: assessmentFlowNotices.captureFailed },
            },
          },
        },
      },
    },
    intro: {
      meta: { title: 'Assessment Overview' },
      on: { START_DIAGNOSTIC: { target: 'diagnostic' } },
    },
    mirror: {
      meta: { title: 'Decision Mirror' },
      on: {
        MIRROR_COMPLETED: [
          { guard: and(['hasUserTurn', 'hasEmail']), target: 'diagnostic', actions: 'takeMirror' },
          { guard: 'hasUserTurn', target: 'email_capture', actions: 'takeMirror' },
        ],
      },
    },
    diagnostic: {
      meta: { title: 'Leadership Diagnostic' },
      on: { DIAGNOSTIC_COMPLETED: { guard: 'hasAnswers', target: 'survey', actions: 'takeAnswers' } },
    },
    survey: {
      meta: { title: 'Qualification Survey' },
      on: {
        SURVEY_SUBMITTED: [
          { guard: and(['isSurveyComplete', 'hasLeadId']), target: 'processing', actions: 'takeSurvey' },
          // after the standalone diagnostic, leaving an address is the next step, not an error
          { guard: and(['isSurveyComplete', 'isStandaloneDiagnostic']), target: 'email_capture', actions: 'takeSurvey' },
          {
            guard: 'isSurveyComplete',
            target: 'email_capture',
            actions: ['takeSurvey', { type: 'setNotice', params: assessmentFlowNotices.noLeadId }],
          },
        ],
      },
    },
    email_capture: {
      initial: 'editing',
      states: {
        editing: {
          exit: 'clearNotice',
          on: {
            EMAIL_SUBMIT: [
              { guard: 'isEmailInvalid', actions: { type: 'setNotice', params: assessmentFlowNotices.invalidEmail } },
              { guard: 'isNameMissing', actions: { type: 'setNotice', params: assessmentFlowNotices.nameRequired } },
              { target: 'saving', actions: 'takeEmailDetails' },
            ],
            EMAIL_EDITED: { guard: 'hasNotice', actions: 'clearNotice' },
            // Grading needs a lead, so skipping is only offered before the survey is done.
            CONTINUE_WITHOUT_SAVING: { guard: not('isSurveyCompleted'), target: '#assessmentFlow.diagnostic' },
          },
        },
        saving: {
          entry: createLead,
          on: {
            LEAD_SAVED: [
              { guard: 'isSurveyCompleted', target: '#assessmentFlow.processing', actions: 'takeLeadId' },
              { target: '#assessmentFlow.diagnostic', actions: 'takeLeadId' },
            ],
            LEAD_FAILED: {
              target: 'editing',
              actions: { type: 'setNotice', params: assessmentFlowNotices.emailCaptureFailed },
            },
          },
        },
      },
    },
    processing: {
      initial: 'grading',
      states: {
        grading: {
          entry: {
            type: 'requestGrading',
            params: ({ context }) => ({
              leadId: requireLeadId(context),
              email: context.session.email,
              name: context.session.name,
              source: context.session.source,
              assessment: context.answers,
              survey: context.survey,
              mirrorChat: context.mirrorChat,
              mirrorSessionId: context.session.mirrorSessionId,
              testingMode: context.testingMode,
              diagnosticId: context.standaloneDiagnosticId,
            }),
          },
          on: {
            GRADED: [
              { guard: 'isGaming', target: '#assessmentFlow.gaming_detected', actions: 'takeGamingMessage' },
              {
                target: 'revealing',
                actions: [
                  'takeResult',
                  // the email the capture step promised; test leads and a canned fallback get none
                  enqueueActions(({ context, event, enqueue }) => {
                    if (event.type !== 'GRADED' || context.testingMode || event.result.fallback) return;
                    enqueue({ type: 'sendResults', params: { leadId: requireLeadId(context), result: event.result } });
                  }),
                ],
              },
            ],
          },
        },
        revealing: {
          after: { resultsDelay: { target: '#assessmentFlow.results' } },
        },
      },
    },
    gaming_detected: {
      exit: 'clearNotice',
      on: { RETAKE: { target: 'diagnostic', actions: ['resetAnswers', 'clearSavedAnswers'] } },
    },
    // The result was stored by the grading job that applied GRADED, in the same transaction.
    results: {
      meta: { title: 'Your Results' },
      on: { CONTINUE: routeByTier },
    },
    // The results shown again: to a returning visitor, or from where their path ended (VIEW_RESULTS).
    completed_results: {
      on: {
        CONTINUE: routeToPath,
        RETAKE: { target: 'intro', actions: ['resetAnswers', 'clearStoredAssessment'] },
      },
    },
    yes_flow: {
      exit: 'clearNotice',
      on: {
        BACK_TO_RESULTS: { target: 'results' },
        PAY_DEPOSIT: { target: 'payment', actions: { type: 'choosePayment', params: { purpose: 'deposit' } } },
      },
    },
    maybe_flow: {
      exit: 'clearNotice',
      on: {
        BACK_TO_RESULTS: { target: 'results' },
        PAY_FOR_HOMEWORK: {
          target: 'payment',
          actions: { type: 'choosePayment', params: { purpose: 'paid_homework' } },
        },
        CHOOSE_FREE_RESOURCES: {
          target: 'homework_processing',
          actions: { type: 'chooseHomework', params: { source: 'free_resources' } },
        },
      },
    },
    no_flow: {
      initial: 'offered',
      states: {
        offered: {
          on: {
            BACK_TO_RESULTS: { target: '#assessmentFlow.results' },
            JOIN_COMMUNITY: { target: 'joined', actions: { type: 'completePath', params: { kind: 'community_joined' } } },
          },
        },
        joined: { on: { VIEW_RESULTS: { target: '#assessmentFlow.completed_results' } } },
      },
    },
    // The server's payments job starts the deposit: a Stripe Checkout, whose url comes back as
    // CHECKOUT_OPENED, or in test-payment mode a test payment confirmed one second later.
    payment: {
      entry: {
        type: 'startPayment',
        params: ({ context }) => ({
          // Both ways in (PAY_DEPOSIT, PAY_FOR_HOMEWORK) set the purpose first; the fallback only satisfies types.
          purpose: context.paymentPurpose ?? 'deposit',
          leadId: context.session.leadId,
          email: context.session.email,
        }),
      },
      on: {
        CHECKOUT_OPENED: { actions: 'takeCheckoutUrl' },
        PAYMENT_CONFIRMED: [
          {
            guard: 'isDepositPayment',
            target: 'payment_success',
            actions: [
              'takePaymentIntent',
              { type: 'completePath', params: { kind: 'deposit_paid', booked: false } },
              // the receipt the deposit screen promises; test leads get none
              enqueueActions(({ context, event, enqueue }) => {
                if (event.type !== 'PAYMENT_CONFIRMED' || context.testingMode || !context.session.leadId) return;
                enqueue({ type: 'sendReceipt', params: { leadId: context.session.leadId, paymentIntentId: event.paymentIntentId } });
              }),
            ],
          },
          {
            target: 'homework_processing',
            actions: ['takePaymentIntent', { type: 'chooseHomework', params: { source: 'paid_homework' } }],
          },
        ],
        PAYMENT_FAILED: paymentFailed,
        PAYMENT_CANCELED: paymentFailed,
      },
    },
    homework_processing: {
      initial: 'sending',
      states: {
        sending: {
          entry: {
            type: 'sendHomework',
            params: ({ context }) => ({
              leadId: context.session.leadId,
              email: context.session.email,
              name: context.session.name,
              sendHomework: context.homeworkSource === 'paid_homework',
              // Every way in sets the source first; the fallback only satisfies types.
              source: context.homeworkSource ?? 'free_resources',
              diagnosticData: context.result,
            }),
          },
          on: {
            HOMEWORK_SENT: [
              { guard: 'isPaidHomework', target: '#assessmentFlow.payment_success', actions: 'takeHomeworkSent' },
              { target: 'sent', actions: 'takeHomeworkSent' },
            ],
            HOMEWORK_FAILED: [
              {
                guard: 'isPaidHomework',
                target: '#assessmentFlow.payment_success',
                actions: { type: 'setNotice', params: assessmentFlowNotices.paidHomeworkFailed },
              },
              {
                target: '#assessmentFlow.maybe_flow',
                actions: { type: 'setNotice', params: assessmentFlowNotices.freeResourcesFailed },
              },
            ],
          },
        },
        sent: { on: { VIEW_RESULTS: { target: '#assessmentFlow.completed_results' } } },
      },
    },
    payment_success: {
      initial: 'confirmed',
      on: { VIEW_RESULTS: { target: 'completed_results' } },
      states: {
        confirmed: {
          on: { BOOK_SESSION: { target: 'booked', actions: 'markBooked' } },
        },
        booked: {},
      },
    },
  },
});
