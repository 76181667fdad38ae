import { and, enqueueActions, not, setup } from 'xstate';
import { assessmentFlowUpdates } from './assessment-flow.actions.js';
import { assessmentFlowTypes, initialContext } from './assessment-flow.context.js';
import { assessmentFlowNotices } from './assessment-flow.copy.js';
import {
  assessmentFlowEffects,
  gradingRequest,
  homeworkRequest,
  leadRequest,
  paymentRequest,
  queueReceipt,
  queueResultsEmail,
  reminderRequest,
} from './assessment-flow.effects.js';
import { assessmentFlowGuards } from './assessment-flow.guards.js';

/**
 * How long the processing notice stays after grading before the results show. A pause of the
 * screen, not a step of the flow: the flow is at `results` once graded, and the browser that saw
 * the grading holds the notice this long (decision 0029), so the reveal costs no timer job.
 */
export const RESULTS_DELAY_MS = 1000;

const flowSetup = setup({
  types: assessmentFlowTypes,
  actions: { ...assessmentFlowEffects, ...assessmentFlowUpdates },
  guards: assessmentFlowGuards,
});

/*
 * The follow-ups' timers: a setTimer effect the server turns into a timer job (the same durable
 * timers as `after`), waiting what the flow was started with. A state's `after` would be cancelled
 * when the visitor moves on, and these must outlive that; test leads get none.
 */
const scheduleAssessmentReminder = flowSetup.enqueueActions(({ context, enqueue }) => {
  if (context.testingMode) return;
  enqueue({ type: 'setTimer', params: { event: 'ASSESSMENT_REMINDER_DUE', delayMs: context.followUps.assessmentReminderMs } });
});
const scheduleBookingReminder = flowSetup.enqueueActions(({ context, enqueue }) => {
  if (context.testingMode) return;
  enqueue({ type: 'setTimer', params: { event: 'BOOKING_REMINDER_DUE', delayMs: context.followUps.bookingReminderMs } });
});

/**
 * The reminder to finish, taken only in the steps between capture and the survey's submission: a
 * flow that has reached processing or beyond (or went back to the capture form) lets it pass.
 */
const remindToFinish = {
  ASSESSMENT_REMINDER_DUE: {
    guard: 'mayRemindToFinish',
    actions: [
      { type: 'remindToFinish', params: reminderRequest },
      { type: 'markReminded', params: { reminder: 'remindedToFinish' } },
    ],
  },
} as const;

/**
 * CONTINUE from the results: a paid deposit goes back to its confirmation (never to a second
 * deposit), anything else to the tier's flow.
 */
const routeByTier = [
  { guard: { type: 'hasPath', params: { kind: 'deposit_paid', booking: 'booked' } }, target: '#assessmentFlow.payment_success.booked' },
  {
    guard: { type: 'hasPath', params: { kind: 'deposit_paid', booking: 'opened' } },
    target: '#assessmentFlow.payment_success.booking_opened',
  },
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

const createLead = { type: 'createLead', params: leadRequest } as const;

/**
 * The real result after the canned fallback: a grading job that failed for good gave the flow the
 * fallback (nurture), and the coach's retry of that job has graded the answers after all. Until
 * the visitor has taken a path, the real result replaces the stand-in and is shown as if fresh,
 * so a homework or book_call lead is offered their own next step, not nurture's.
 */
const replaceFallback = {
  GRADED: [
    { guard: and(['replacesFallback', 'isGaming']), target: '#assessmentFlow.gaming_detected', actions: 'takeGamingMessage' },
    {
      guard: 'replacesFallback',
      target: '#assessmentFlow.results',
      actions: ['takeResult', flowSetup.enqueueActions(queueResultsEmail)],
    },
  ],
} as const;

const paymentFailed = [
  { guard: 'isDepositPayment', target: '#assessmentFlow.yes_flow', actions: 'showPaymentFailure' },
  { target: '#assessmentFlow.maybe_flow', actions: 'showPaymentFailure' },
] as const;

/**
 * The assessment modal: its steps, the transient `opening` decision and the `payment` wait between
 * a deposit choice and its outcome.
 *
 * Effects are named actions with no-op defaults (assessment-flow.effects.ts), and their outcomes are
 * events (LEAD_SAVED, GRADED, CHECKOUT_OPENED, PAYMENT_CONFIRMED, HOMEWORK_SENT and their failures),
 * because the server runs this machine with XState's pure transition functions, which never start
 * invoked actors. A completed assessment is shown again at completed_results when the server opens a
 * returning visitor's flow with it as `storedResult`. The diagnostic and the Mirror chat run as their
 * own machines and report here once finished.
 */
export const assessmentFlowMachine = flowSetup.createMachine({
  id: 'assessmentFlow',
  context: ({ input }) => initialContext(input),
  initial: 'opening',
  // the provider's booking news arrives wherever the visitor is (the results again, a retake):
  // the deposit's path records it; payment_success, below, also shows it
  on: {
    SESSION_BOOKED: {
      guard: { type: 'hasPath', params: { kind: 'deposit_paid' } },
      actions: { type: 'markBooking', params: { booking: 'booked' } },
    },
    SESSION_CANCELED: {
      guard: { type: 'hasPath', params: { kind: 'deposit_paid', booking: 'booked' } },
      actions: { type: 'markBooking', params: { booking: 'opened' } },
    },
    // the coach's refund, wherever the visitor is; a booked session stays booked until the coach cancels it
    DEPOSIT_REFUNDED: { guard: { type: 'hasPath', params: { kind: 'deposit_paid' } }, actions: 'markRefunded' },
    // test or real is decided per flow, and can change on screen until the lead is captured
    SET_TESTING_MODE: { guard: 'mayChangeTestingMode', actions: 'setTestingMode' },
    // a day after the deposit, wherever the visitor is, unless the provider reported a booking
    BOOKING_REMINDER_DUE: {
      guard: 'mayRemindToBook',
      actions: [
        { type: 'remindToBook', params: reminderRequest },
        { type: 'markReminded', params: { reminder: 'remindedToBook' } },
      ],
    },
  },
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
              { guard: 'isMirrorMode', target: '#assessmentFlow.mirror', actions: ['takeLeadId', scheduleAssessmentReminder] },
              { target: '#assessmentFlow.intro', actions: ['takeLeadId', scheduleAssessmentReminder] },
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
      on: { START_DIAGNOSTIC: { target: 'diagnostic' }, ...remindToFinish },
    },
    mirror: {
      meta: { title: 'Decision Mirror' },
      entry: 'countChildFlowVisit',
      on: {
        ...remindToFinish,
        MIRROR_COMPLETED: [
          { guard: and(['hasUserTurn', 'hasEmail']), target: 'diagnostic', actions: 'takeMirror' },
          { guard: 'hasUserTurn', target: 'email_capture', actions: 'takeMirror' },
        ],
      },
    },
    diagnostic: {
      meta: { title: 'Leadership Diagnostic' },
      entry: 'countChildFlowVisit',
      on: { DIAGNOSTIC_COMPLETED: { guard: 'hasAnswers', target: 'survey', actions: 'takeAnswers' }, ...remindToFinish },
    },
    survey: {
      meta: { title: 'Qualification Survey' },
      on: {
        ...remindToFinish,
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
              { target: '#assessmentFlow.diagnostic', actions: ['takeLeadId', scheduleAssessmentReminder] },
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
          entry: { type: 'requestGrading', params: gradingRequest },
          on: {
            GRADED: [
              { guard: 'isGaming', target: '#assessmentFlow.gaming_detected', actions: 'takeGamingMessage' },
              {
                target: '#assessmentFlow.results',
                actions: ['takeResult', enqueueActions(queueResultsEmail)],
              },
            ],
          },
        },
      },
    },
    gaming_detected: {
      exit: 'clearNotice',
      on: { RETAKE: { target: 'diagnostic', actions: ['resetAnswers', 'clearSavedAnswers'] }, ...remindToFinish },
    },
    // The result was stored by the grading job that applied GRADED, in the same transaction.
    results: {
      meta: { title: 'Your Results' },
      on: { CONTINUE: routeByTier, ...replaceFallback },
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
            ...replaceFallback,
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
      entry: { type: 'startPayment', params: paymentRequest },
      on: {
        CHECKOUT_OPENED: { actions: 'takeCheckoutUrl' },
        PAYMENT_CONFIRMED: [
          {
            guard: 'isDepositPayment',
            target: 'payment_success',
            actions: [
              'takePaymentIntent',
              { type: 'completePath', params: { kind: 'deposit_paid', booking: 'none' } },
              enqueueActions(queueReceipt),
              scheduleBookingReminder,
            ],
          },
          {
            target: 'homework_processing',
            actions: ['takePaymentIntent', { type: 'chooseHomework', params: { source: 'paid_homework' } }, enqueueActions(queueReceipt)],
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
          // a test lead gets no email of any kind: its homework is not sent, and the flow goes on as if it were
          entry: enqueueActions(({ context, enqueue }) => {
            if (!context.testingMode) enqueue({ type: 'sendHomework', params: homeworkRequest({ context }) });
          }),
          always: [
            { guard: and(['isTestingMode', 'isPaidHomework']), target: '#assessmentFlow.payment_success', actions: 'takeHomeworkSent' },
            { guard: 'isTestingMode', target: 'sent', actions: 'takeHomeworkSent' },
          ],
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
      on: {
        VIEW_RESULTS: { target: 'completed_results' },
        SESSION_BOOKED: { target: '.booked', actions: { type: 'markBooking', params: { booking: 'booked' } } },
      },
      states: {
        confirmed: {
          on: { BOOK_SESSION: { target: 'booking_opened', actions: 'markBookingOpened' } },
        },
        // the visitor opened the booking page; the provider's webhook says when a time is booked
        booking_opened: {},
        booked: {
          on: { SESSION_CANCELED: { target: 'booking_opened', actions: { type: 'markBooking', params: { booking: 'opened' } } } },
        },
      },
    },
  },
});
