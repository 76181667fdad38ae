import fc from 'fast-check';
import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import { GAMING_MESSAGE } from '../grading/gaming.js';
import {
  type AssessmentFlowInput,
  assessmentFlowClientEventSchema,
  assessmentFlowEventSchema,
  assessmentFlowInputSchema,
  assessmentFlowSystemEventSchema,
} from '../protocol/assessment-flow.js';
import { canAccept } from '../protocol/can-accept.js';
import type { Tier } from '../protocol/common.js';
import {
  CHECKOUT_URL,
  completeSurvey,
  gamingResult,
  LEAD_ID,
  MIRROR_SESSION_ID,
  resultFor,
  sampleAnswers,
  sampleChat,
  sampleEvents,
  STANDALONE_DIAGNOSTIC_ID,
  startFlow,
} from './assessment-flow.fixtures.js';
import type { AssessmentFlowContext } from './assessment-flow.context.js';
import { assessmentFlowNotices } from './assessment-flow.copy.js';
import { missingSurveyAnswers } from './assessment-flow.guards.js';
import { assessmentFlowMachine } from './assessment-flow.machine.js';

const validToken = {
  status: 'valid',
  token: 'tok_0123456789abcdef',
  source: 'token',
  leadId: LEAD_ID,
  email: 'ada@example.com',
  name: 'Ada',
} as const;

/** A flow opened by a valid token link, walked to the results of the given tier. */
function atResults(tier: Tier) {
  const flow = startFlow({ token: validToken });
  flow.actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
  flow.actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
  flow.actor.send({ type: 'GRADED', result: resultFor(tier) });
  return flow;
}

describe('assessmentFlow: opening', () => {
  it('starts at capture for a direct visitor', () => {
    const { actor } = startFlow();
    expect(actor.getSnapshot().value).toEqual({ capture: 'editing' });
    expect(actor.getSnapshot().context.session.source).toBe('direct');
  });

  it('skips capture with a valid token, taking the lead from the token record', () => {
    const { actor } = startFlow({ token: validToken });
    expect(actor.getSnapshot().value).toBe('diagnostic');
    expect(actor.getSnapshot().context.session).toMatchObject({
      source: 'token',
      leadToken: validToken.token,
      leadId: LEAD_ID,
      email: 'ada@example.com',
    });
  });

  it('marks the session community when the token record says so', () => {
    const { actor } = startFlow({ token: { ...validToken, source: 'community' } });
    expect(actor.getSnapshot().context.session.source).toBe('community');
  });

  it('skips capture for a community referral and for a known session', () => {
    expect(startFlow({ communityReferral: true }).actor.getSnapshot().value).toBe('diagnostic');
    const known = { leadId: LEAD_ID, email: 'b@example.com', name: 'B', source: 'direct', leadToken: null } as const;
    expect(startFlow({ knownSession: known }).actor.getSnapshot().value).toBe('diagnostic');
  });

  it('goes straight to the Mirror when opened as Mirror and capture is skipped', () => {
    expect(startFlow({ mode: 'mirror', token: validToken }).actor.getSnapshot().value).toBe('mirror');
  });

  it('takes the normal capture path for an invalid or expired token', () => {
    const known = { leadId: LEAD_ID, email: 'b@example.com', name: 'B', source: 'direct', leadToken: null } as const;
    const { actor } = startFlow({
      token: { status: 'invalid', token: 'tok_expired_000000', expired: true },
      knownSession: known,
    });
    expect(actor.getSnapshot().value).toEqual({ capture: 'editing' });
    expect(actor.getSnapshot().context.session.leadToken).toBeNull();
  });

  it('shows a stored completed assessment, except in Mirror mode', () => {
    const stored = resultFor('homework');
    expect(startFlow({ storedResult: stored, token: validToken }).actor.getSnapshot().value).toBe('completed_results');
    expect(startFlow({ storedResult: stored, token: validToken, mode: 'mirror' }).actor.getSnapshot().value).toBe('mirror');
  });

  it('clears stored assessment state in testing mode instead of showing it', () => {
    const { actor, effectTypes } = startFlow({ storedResult: resultFor('homework'), testingMode: true });
    expect(actor.getSnapshot().value).toEqual({ capture: 'editing' });
    expect(actor.getSnapshot().context.result).toBeNull();
    expect(effectTypes()).toEqual(['clearStoredAssessment']);
  });

  it('drops corrupt stored data when parsing the input', () => {
    expect(assessmentFlowInputSchema.safeParse({ storedResult: { archetype: 'x' } }).success).toBe(false);
    expect(assessmentFlowInputSchema.parse({})).toMatchObject({ mode: 'assessment', testingMode: false });
  });
});

describe('assessmentFlow: capture', () => {
  it('needs both name and email, without a format check', () => {
    const { actor, machine } = startFlow();
    const capture = actor.getSnapshot();
    expect(canAccept(machine, capture, { type: 'CAPTURE_SUBMIT', name: 'Ada', email: '  ' })).toBe(false);
    expect(canAccept(machine, capture, { type: 'CAPTURE_SUBMIT', name: '', email: 'a@b.c' })).toBe(false);
    expect(canAccept(machine, capture, { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'not-checked' })).toBe(true);
  });

  it('creates the lead, then shows the intro', () => {
    const { actor, effects } = startFlow();
    actor.send({ type: 'CAPTURE_SUBMIT', name: ' Ada ', email: ' ada@example.com ' });
    expect(actor.getSnapshot().value).toEqual({ capture: 'saving' });
    expect(effects).toEqual([
      {
        type: 'createLead',
        params: { email: 'ada@example.com', name: 'Ada', source: 'direct', leadToken: null, testingMode: false },
      },
    ]);
    actor.send({ type: 'LEAD_SAVED', leadId: LEAD_ID });
    expect(actor.getSnapshot().value).toBe('intro');
    expect(actor.getSnapshot().context.session.leadId).toBe(LEAD_ID);
  });

  it('goes to the Mirror after capture when opened as Mirror', () => {
    const { actor } = startFlow({ mode: 'mirror' });
    actor.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' });
    actor.send({ type: 'LEAD_SAVED', leadId: LEAD_ID });
    expect(actor.getSnapshot().value).toBe('mirror');
  });

  it("shows 'Failed to start assessment' when the lead cannot be saved, and clears it on the next try", () => {
    const { actor } = startFlow();
    actor.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' });
    actor.send({ type: 'LEAD_FAILED' });
    expect(actor.getSnapshot().value).toEqual({ capture: 'editing' });
    expect(actor.getSnapshot().context.notice).toEqual(assessmentFlowNotices.captureFailed);
    actor.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });
});

describe('assessmentFlow: diagnostic, survey and processing', () => {
  it('walks intro -> diagnostic -> survey -> processing -> results', () => {
    const { actor, effects, machine } = startFlow();
    actor.send({ type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' });
    actor.send({ type: 'LEAD_SAVED', leadId: LEAD_ID });
    actor.send({ type: 'START_DIAGNOSTIC' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'DIAGNOSTIC_COMPLETED', answers: {} })).toBe(false);
    actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    expect(actor.getSnapshot()).toMatchObject({ value: 'survey', context: { session: { assessmentCompleted: true } } });

    const incomplete = { ...completeSurvey, q5_success: '   ' };
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SURVEY_SUBMITTED', answers: incomplete })).toBe(false);
    actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    expect(actor.getSnapshot()).toMatchObject({
      value: { processing: 'grading' },
      context: { session: { surveyCompleted: true } },
    });
    expect(effects.at(-1)).toEqual({
      type: 'requestGrading',
      params: {
        leadId: LEAD_ID,
        email: 'ada@example.com',
        name: 'Ada',
        source: 'direct',
        assessment: sampleAnswers,
        survey: completeSurvey,
        mirrorChat: [],
        mirrorSessionId: null,
        testingMode: false,
        diagnosticId: null,
      },
    });

    actor.send({ type: 'GRADED', result: resultFor('book_call') });
    expect(actor.getSnapshot().value).toBe('results');
    // the grading job that applied GRADED stored the result; showing it stores nothing again
    expect(effects.at(-1)?.type).toBe('requestGrading');
  });

  it('asks for an email before grading when there is no lead yet', () => {
    const { actor, machine, effectTypes } = startFlow({ communityReferral: true });
    actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    expect(actor.getSnapshot()).toMatchObject({
      value: { email_capture: 'editing' },
      context: { notice: assessmentFlowNotices.noLeadId },
    });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'CONTINUE_WITHOUT_SAVING' })).toBe(false);

    actor.send({ type: 'EMAIL_SUBMIT', email: 'not an email', name: '' });
    expect(actor.getSnapshot().context.notice).toEqual(assessmentFlowNotices.invalidEmail);
    actor.send({ type: 'EMAIL_SUBMIT', email: 'sam@example.com', name: '' });
    expect(actor.getSnapshot()).toMatchObject({
      value: { email_capture: 'saving' },
      context: { notice: null, session: { email: 'sam@example.com', name: 'Community Member' } },
    });
    actor.send({ type: 'LEAD_SAVED', leadId: LEAD_ID });
    expect(actor.getSnapshot().value).toEqual({ processing: 'grading' });
    expect(effectTypes()).toEqual(['createLead', 'requestGrading']);
  });

  it('asks a non-community visitor for their name and clears errors on typing', () => {
    const { actor, machine } = startFlow({ mode: 'mirror', token: { ...validToken, email: null, name: null } });
    actor.send({ type: 'MIRROR_COMPLETED', sessionId: MIRROR_SESSION_ID, chat: [...sampleChat] });
    expect(actor.getSnapshot().value).toEqual({ email_capture: 'editing' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'EMAIL_EDITED' })).toBe(false);
    actor.send({ type: 'EMAIL_SUBMIT', email: 'sam@example.com', name: ' ' });
    expect(actor.getSnapshot().context.notice).toEqual(assessmentFlowNotices.nameRequired);
    actor.send({ type: 'EMAIL_EDITED' });
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('records the Mirror session and lets the visitor continue without saving', () => {
    const { actor } = startFlow({ mode: 'mirror', communityReferral: true });
    actor.send({ type: 'MIRROR_COMPLETED', sessionId: MIRROR_SESSION_ID, chat: [...sampleChat] });
    expect(actor.getSnapshot().context).toMatchObject({
      mirrorChat: sampleChat,
      session: { mirrorSessionId: MIRROR_SESSION_ID },
    });
    actor.send({ type: 'CONTINUE_WITHOUT_SAVING' });
    expect(actor.getSnapshot().value).toBe('diagnostic');
  });

  it('goes from the Mirror straight to the diagnostic when the email is known', () => {
    const { actor, machine } = startFlow({ mode: 'mirror', token: validToken });
    const onlyMirror = [{ role: 'mirror', content: 'Hello' }] as const;
    expect(canAccept(machine, actor.getSnapshot(), { type: 'MIRROR_COMPLETED', sessionId: MIRROR_SESSION_ID, chat: [...onlyMirror] })).toBe(
      false,
    );
    actor.send({ type: 'MIRROR_COMPLETED', sessionId: MIRROR_SESSION_ID, chat: [...sampleChat] });
    expect(actor.getSnapshot().value).toBe('diagnostic');
  });

  it('sends gaming to the retake prompt, and a retake clears the answers', () => {
    const { actor, effectTypes } = startFlow({ token: validToken });
    actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    actor.send({ type: 'GRADED', result: gamingResult() });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'gaming_detected',
      context: { notice: { description: GAMING_MESSAGE }, result: null },
    });
    actor.send({ type: 'RETAKE' });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'diagnostic',
      context: { answers: {}, survey: {}, notice: null, session: { assessmentCompleted: false, surveyCompleted: false } },
    });
    expect(effectTypes()).toContain('clearSavedAnswers');
  });

  it("shows the server's gaming message when it sends one", () => {
    const { actor } = startFlow({ token: validToken });
    actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    actor.send({ type: 'GRADED', result: gamingResult('Slow down, please.') });
    expect(actor.getSnapshot().context.notice?.description).toBe('Slow down, please.');
  });

  it('lists the unanswered required survey questions', () => {
    expect(missingSurveyAnswers(completeSurvey)).toEqual([]);
    expect(missingSurveyAnswers({ ...completeSurvey, q1_investment: 'bogus', q5_success: '' })).toEqual(['q1_investment', 'q5_success']);
    const { q6_context, q7_team, ...requiredOnly } = completeSurvey;
    expect([q6_context, q7_team].every(Boolean)).toBe(true);
    expect(missingSurveyAnswers(requiredOnly)).toEqual([]);
  });
});

describe('assessmentFlow: results routing', () => {
  it('routes book_call to yes_flow, with Back to Results until a path is chosen', () => {
    const { actor, machine, effects } = atResults('book_call');
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toBe('yes_flow');
    actor.send({ type: 'BACK_TO_RESULTS' });
    expect(actor.getSnapshot().value).toBe('results');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_DEPOSIT' });
    expect(actor.getSnapshot().value).toBe('payment');
    expect(effects.at(-1)).toEqual({
      type: 'startPayment',
      params: { purpose: 'deposit', leadId: LEAD_ID, email: 'ada@example.com' },
    });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'BACK_TO_RESULTS' })).toBe(false);
    expect(canAccept(machine, actor.getSnapshot(), { type: 'PAY_DEPOSIT' })).toBe(false);
    actor.send({ type: 'CHECKOUT_OPENED', url: CHECKOUT_URL });
    expect(actor.getSnapshot()).toMatchObject({ value: 'payment', context: { checkoutUrl: CHECKOUT_URL } });
    actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_1' });
    expect(actor.getSnapshot()).toMatchObject({
      value: { payment_success: 'confirmed' },
      context: { session: { paymentIntentId: 'pi_1' } },
    });
    actor.send({ type: 'BOOK_SESSION' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'booking_opened' });
    // only the scheduling provider's webhook says a time was booked, and a cancellation takes it back
    expect(canAccept(machine, actor.getSnapshot(), { type: 'SESSION_CANCELED', provider: 'calendly' })).toBe(false);
    actor.send({ type: 'SESSION_BOOKED', provider: 'calendly', startsAt: '2026-12-01T15:00:00.000Z' });
    expect(actor.getSnapshot()).toMatchObject({
      value: { payment_success: 'booked' },
      context: { completedPath: { kind: 'deposit_paid', booking: 'booked' } },
    });
    actor.send({ type: 'SESSION_CANCELED', provider: 'calendly' });
    expect(actor.getSnapshot()).toMatchObject({
      value: { payment_success: 'booking_opened' },
      context: { completedPath: { kind: 'deposit_paid', booking: 'opened' } },
    });
  });

  it('returns to yes_flow with the product notice when the checkout could not start; a new attempt forgets the old checkout', () => {
    const { actor, effectTypes } = atResults('book_call');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_DEPOSIT' });
    actor.send({ type: 'CHECKOUT_OPENED', url: CHECKOUT_URL });
    actor.send({ type: 'PAYMENT_FAILED', reason: 'start_failed' });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'yes_flow',
      context: { notice: { title: 'Payment Failed', description: 'There was an issue starting your checkout. Please try again.' } },
    });
    actor.send({ type: 'PAY_DEPOSIT' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'payment', context: { checkoutUrl: null, notice: null } });
    expect(effectTypes().filter((type) => type === 'startPayment')).toHaveLength(2);
  });

  it('takes a checkout url only while a payment is under way', () => {
    const { actor, machine } = atResults('book_call');
    expect(canAccept(machine, actor.getSnapshot(), { type: 'CHECKOUT_OPENED', url: CHECKOUT_URL })).toBe(false);
    expect(assessmentFlowEventSchema.safeParse({ type: 'CHECKOUT_OPENED', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(assessmentFlowClientEventSchema.safeParse({ type: 'CHECKOUT_OPENED', url: CHECKOUT_URL }).success).toBe(false);
  });

  it('returns to yes_flow when verification fails', () => {
    const { actor } = atResults('book_call');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_DEPOSIT' });
    actor.send({ type: 'PAYMENT_FAILED', reason: 'verification_failed' });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'yes_flow',
      context: { notice: { title: 'Payment verification failed', description: 'Please contact support.' } },
    });
  });

  it('routes homework to maybe_flow: paid homework is sent after the deposit', () => {
    const { actor, effects } = atResults('homework');
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toBe('maybe_flow');
    actor.send({ type: 'PAY_FOR_HOMEWORK' });
    expect(effects.at(-1)).toMatchObject({ type: 'startPayment', params: { purpose: 'paid_homework' } });
    actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_2' });
    expect(actor.getSnapshot().value).toEqual({ homework_processing: 'sending' });
    expect(effects.at(-1)).toEqual({
      type: 'sendHomework',
      params: {
        leadId: LEAD_ID,
        email: 'ada@example.com',
        name: 'Ada',
        sendHomework: true,
        source: 'paid_homework',
        diagnosticData: resultFor('homework'),
      },
    });
    actor.send({ type: 'HOMEWORK_SENT' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'confirmed' });
  });

  it('tells a paying visitor when the homework could not be sent', () => {
    const { actor } = atResults('homework');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_FOR_HOMEWORK' });
    actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_2' });
    actor.send({ type: 'HOMEWORK_FAILED' });
    expect(actor.getSnapshot()).toMatchObject({
      value: { payment_success: 'confirmed' },
      context: { notice: assessmentFlowNotices.paidHomeworkFailed },
    });
  });

  it('returns to maybe_flow when the homework deposit is canceled', () => {
    const { actor } = atResults('homework');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_FOR_HOMEWORK' });
    actor.send({ type: 'PAYMENT_CANCELED' });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'maybe_flow',
      context: { notice: { description: 'Your checkout was canceled. You can restart the process anytime.' } },
    });
  });

  it('sends free resources through homework_processing', () => {
    const { actor, effects } = atResults('homework');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'CHOOSE_FREE_RESOURCES' });
    expect(effects.at(-1)).toMatchObject({
      type: 'sendHomework',
      params: { sendHomework: false, source: 'free_resources' },
    });
    actor.send({ type: 'HOMEWORK_SENT' });
    expect(actor.getSnapshot().value).toEqual({ homework_processing: 'sent' });
  });

  it('returns to maybe_flow when free resources fail', () => {
    const { actor } = atResults('homework');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'CHOOSE_FREE_RESOURCES' });
    actor.send({ type: 'HOMEWORK_FAILED' });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'maybe_flow',
      context: { notice: assessmentFlowNotices.freeResourcesFailed },
    });
  });

  it('routes nurture to no_flow; joining the community ends Back to Results', () => {
    const { actor, machine } = atResults('nurture');
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toEqual({ no_flow: 'offered' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'BACK_TO_RESULTS' })).toBe(true);
    actor.send({ type: 'JOIN_COMMUNITY' });
    expect(actor.getSnapshot().value).toEqual({ no_flow: 'joined' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'BACK_TO_RESULTS' })).toBe(false);
  });

  it('routes a stored result by its tier and can retake from it', () => {
    const stored = startFlow({ storedResult: resultFor('book_call'), token: validToken });
    stored.actor.send({ type: 'CONTINUE' });
    expect(stored.actor.getSnapshot().value).toBe('yes_flow');

    const retake = startFlow({ storedResult: resultFor('nurture'), token: validToken });
    retake.actor.send({ type: 'RETAKE' });
    expect(retake.actor.getSnapshot()).toMatchObject({ value: 'intro', context: { result: null } });
    expect(retake.effectTypes()).toEqual(['clearStoredAssessment']);
  });
});

describe('assessmentFlow: where a path ended, and its results shown again', () => {
  const knownSession = { leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'direct' as const, leadToken: null };

  it('shows the results again from a paid deposit, and Continue goes back to the confirmation, never to a second deposit', () => {
    const { actor, machine } = atResults('book_call');
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'PAY_DEPOSIT' });
    actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_1' });
    expect(actor.getSnapshot().context.completedPath).toEqual({ kind: 'deposit_paid', booking: 'none' });
    actor.send({ type: 'VIEW_RESULTS' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'completed_results', context: { result: resultFor('book_call') } });
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'confirmed' });
    actor.send({ type: 'BOOK_SESSION' });
    expect(actor.getSnapshot().context.completedPath).toEqual({ kind: 'deposit_paid', booking: 'opened' });
    actor.send({ type: 'VIEW_RESULTS' });
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'booking_opened' });
    // the booking reported while the visitor looks at the results again is kept, and Continue shows it
    actor.send({ type: 'VIEW_RESULTS' });
    actor.send({ type: 'SESSION_BOOKED', provider: 'calcom', startsAt: null });
    expect(actor.getSnapshot().value).toBe('completed_results');
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'booked' });
    // a retake keeps the deposit: its new results lead back to the booking, not to a second payment
    actor.send({ type: 'VIEW_RESULTS' });
    actor.send({ type: 'RETAKE' });
    expect(actor.getSnapshot().context.completedPath).toEqual({ kind: 'deposit_paid', booking: 'booked' });
    expect(canAccept(machine, actor.getSnapshot(), { type: 'VIEW_RESULTS' })).toBe(false);
  });

  it('shows the results again after homework was sent or the community joined, and Continue returns there', () => {
    const paid = atResults('homework');
    paid.actor.send({ type: 'CONTINUE' });
    paid.actor.send({ type: 'PAY_FOR_HOMEWORK' });
    paid.actor.send({ type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi_2' });
    paid.actor.send({ type: 'HOMEWORK_SENT' });
    expect(paid.actor.getSnapshot().context.completedPath).toEqual({ kind: 'homework_sent', source: 'paid_homework' });
    paid.actor.send({ type: 'VIEW_RESULTS' });
    expect(paid.actor.getSnapshot().value).toBe('completed_results');
    paid.actor.send({ type: 'CONTINUE' });
    expect(paid.actor.getSnapshot().value).toEqual({ homework_processing: 'sent' });
    expect(paid.effectTypes().filter((type) => type === 'sendHomework')).toHaveLength(1);

    const free = atResults('homework');
    free.actor.send({ type: 'CONTINUE' });
    free.actor.send({ type: 'CHOOSE_FREE_RESOURCES' });
    free.actor.send({ type: 'HOMEWORK_FAILED' });
    expect(free.actor.getSnapshot().context.completedPath).toBeNull();
    free.actor.send({ type: 'CHOOSE_FREE_RESOURCES' });
    free.actor.send({ type: 'HOMEWORK_SENT' });
    expect(free.actor.getSnapshot().context.completedPath).toEqual({ kind: 'homework_sent', source: 'free_resources' });

    const joined = atResults('nurture');
    joined.actor.send({ type: 'CONTINUE' });
    joined.actor.send({ type: 'JOIN_COMMUNITY' });
    joined.actor.send({ type: 'VIEW_RESULTS' });
    joined.actor.send({ type: 'CONTINUE' });
    expect(joined.actor.getSnapshot().value).toEqual({ no_flow: 'joined' });
  });

  it("opens a returning visitor's stored result with where its path ended", () => {
    const { actor } = startFlow({
      storedResult: resultFor('book_call'),
      storedPath: { kind: 'deposit_paid', booking: 'none' },
      knownSession,
    });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'completed_results',
      context: { completedPath: { kind: 'deposit_paid', booking: 'none' } },
    });
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toEqual({ payment_success: 'confirmed' });
    // a path without its result, or in testing mode, is not shown
    expect(startFlow({ storedPath: { kind: 'community_joined' } }).actor.getSnapshot().context.completedPath).toBeNull();
  });

  it('opens on the survey for a standalone diagnostic, asks for an address without an error, and grades its answers for it', () => {
    const { actor, effects } = startFlow({ standaloneDiagnostic: { id: STANDALONE_DIAGNOSTIC_ID, answers: sampleAnswers } });
    expect(actor.getSnapshot()).toMatchObject({
      value: 'survey',
      context: { answers: sampleAnswers, session: { assessmentCompleted: true }, standaloneDiagnosticId: STANDALONE_DIAGNOSTIC_ID },
    });
    actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    expect(actor.getSnapshot()).toMatchObject({ value: { email_capture: 'editing' }, context: { notice: null } });
    actor.send({ type: 'EMAIL_SUBMIT', email: 'ada@example.com', name: 'Ada' });
    actor.send({ type: 'LEAD_SAVED', leadId: LEAD_ID });
    expect(effects.at(-1)).toMatchObject({
      type: 'requestGrading',
      params: { leadId: LEAD_ID, assessment: sampleAnswers, survey: completeSurvey, diagnosticId: STANDALONE_DIAGNOSTIC_ID },
    });
    // a retake runs the modal's own diagnostic, no longer the standalone one
    actor.send({ type: 'GRADED', result: gamingResult() });
    actor.send({ type: 'RETAKE' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'diagnostic', context: { standaloneDiagnosticId: null, answers: {} } });

    // a visitor already known goes from the survey straight to grading
    const known = startFlow({ standaloneDiagnostic: { id: STANDALONE_DIAGNOSTIC_ID, answers: sampleAnswers }, knownSession });
    known.actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    expect(known.actor.getSnapshot().value).toEqual({ processing: 'grading' });
  });
});

describe('assessmentFlow: events and the server', () => {
  it('leaves the state unchanged for an event the current step does not take', () => {
    const { actor, machine } = startFlow({ token: validToken });
    const diagnostic = actor.getSnapshot();
    for (const event of [
      { type: 'GRADED', result: resultFor('book_call') },
      { type: 'LEAD_SAVED', leadId: LEAD_ID },
      { type: 'PAYMENT_CONFIRMED', paymentIntentId: 'pi' },
      { type: 'CONTINUE' },
      { type: 'BACK_TO_RESULTS' },
    ] as const) {
      expect(canAccept(machine, diagnostic, event)).toBe(false);
      actor.send(event);
      expect(actor.getSnapshot()).toBe(diagnostic);
    }
  });

  it('never throws, and refuses without any change whatever arrives in whatever order', () => {
    const openings = fc.constantFrom<AssessmentFlowInput>(
      {},
      { mode: 'mirror' },
      { communityReferral: true },
      { token: validToken },
      { storedResult: resultFor('book_call'), token: validToken },
    );
    fc.assert(
      fc.property(openings, fc.array(fc.constantFrom(...sampleEvents), { maxLength: 40 }), (input, events) => {
        let [snapshot] = initialTransition(assessmentFlowMachine, input);
        for (const event of events) {
          const accepted = canAccept(assessmentFlowMachine, snapshot, event);
          const [next] = transition(assessmentFlowMachine, snapshot, event);
          expect(next === snapshot).toBe(!accepted);
          snapshot = next;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps system events out of what a browser may send', () => {
    const graded = { type: 'GRADED', result: resultFor('book_call') };
    expect(assessmentFlowClientEventSchema.safeParse(graded).success).toBe(false);
    expect(assessmentFlowSystemEventSchema.safeParse(graded).success).toBe(true);
    expect(assessmentFlowEventSchema.safeParse({ type: 'PAYMENT_CONFIRMED', paymentIntentId: '' }).success).toBe(false);
    expect(assessmentFlowClientEventSchema.safeParse({ type: 'MIRROR_COMPLETED', sessionId: 'x', chat: [] }).success).toBe(false);
  });

  it('runs on pure transitions through a persisted, JSON round-tripped snapshot', () => {
    const [opened, openingEffects] = initialTransition(assessmentFlowMachine, { token: validToken });
    expect(opened.value).toBe('diagnostic');
    expect(openingEffects).toEqual([]);

    const [surveyed] = transition(assessmentFlowMachine, opened, { type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    const stored = JSON.parse(JSON.stringify(assessmentFlowMachine.getPersistedSnapshot(surveyed)));
    const restored = assessmentFlowMachine.resolveState(stored);
    expect(restored.context.answers).toEqual(sampleAnswers);

    const [processing, effects] = transition(assessmentFlowMachine, restored, {
      type: 'SURVEY_SUBMITTED',
      answers: completeSurvey,
    });
    expect(processing.value).toEqual({ processing: 'grading' });
    expect(effects.map((e) => e.type)).toEqual(['requestGrading']);

    const [results, graded] = transition(assessmentFlowMachine, processing, {
      type: 'GRADED',
      result: resultFor('nurture'),
    });
    // the results at once, with the results email the capture step promised: the 1 s reveal is
    // the screen's pause, so nothing is scheduled for it
    expect(results.value).toBe('results');
    expect(graded).toMatchObject([
      { type: 'sendResults', params: { leadId: restored.context.session.leadId, result: resultFor('nurture') } },
    ]);
    // no email for a testing-mode flow, nor for the canned fallback result
    const testing = assessmentFlowMachine.resolveState({
      ...stored,
      context: { ...(stored.context as AssessmentFlowContext), testingMode: true },
    } as never);
    const [testingGrading] = transition(assessmentFlowMachine, testing, { type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    expect(transition(assessmentFlowMachine, testingGrading, { type: 'GRADED', result: resultFor('nurture') })[1]).toEqual([]);
    expect(
      transition(assessmentFlowMachine, processing, { type: 'GRADED', result: { ...resultFor('nurture'), fallback: true } })[1],
    ).toEqual([]);
  });
});

describe('assessmentFlow: the real result after the canned fallback', () => {
  const canned = { ...resultFor('nurture'), fallback: true };

  /** A flow whose grading job failed for good: it shows the canned fallback (nurture). */
  function atFallback() {
    const flow = startFlow({ token: validToken });
    flow.actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: sampleAnswers });
    flow.actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
    flow.actor.send({ type: 'GRADED', result: canned });
    return flow;
  }

  it.each([
    ['results', () => atFallback()],
    [
      'no_flow.offered',
      () => {
        const flow = atFallback();
        flow.actor.send({ type: 'CONTINUE' });
        return flow;
      },
    ],
  ] as const)('at %s, a graded result replaces it, is shown with its email, and routes by its own tier', (_state, reach) => {
    const { actor } = reach();
    const before = actor.getSnapshot();
    expect(before.context.result).toEqual(canned);
    const [shown, effects] = transition(assessmentFlowMachine, before, { type: 'GRADED', result: resultFor('homework') });
    expect(shown.value).toBe('results');
    expect(shown.context.result).toEqual(resultFor('homework'));
    expect(effects.map((e) => e.type)).toContain('sendResults');
    actor.send({ type: 'GRADED', result: resultFor('homework') });
    expect(actor.getSnapshot().value).toBe('results');
    actor.send({ type: 'CONTINUE' });
    expect(actor.getSnapshot().value).toBe('maybe_flow');
  });

  it('a gaming result asks for the retake; another fallback, or any result once a real one is shown, is refused', () => {
    const { actor } = atFallback();
    const shown = actor.getSnapshot();
    expect(transition(assessmentFlowMachine, shown, { type: 'GRADED', result: { ...gamingResult(), fallback: false } })[0].value).toBe(
      'gaming_detected',
    );
    expect(canAccept(assessmentFlowMachine, shown, { type: 'GRADED', result: canned })).toBe(false);

    const real = atResults('homework').actor.getSnapshot();
    expect(canAccept(assessmentFlowMachine, real, { type: 'GRADED', result: resultFor('book_call') })).toBe(false);
    // once the visitor took a path (joined the community), the fallback's path stands
    actor.send({ type: 'CONTINUE' });
    actor.send({ type: 'JOIN_COMMUNITY' });
    expect(canAccept(assessmentFlowMachine, actor.getSnapshot(), { type: 'GRADED', result: resultFor('homework') })).toBe(false);
  });
});
