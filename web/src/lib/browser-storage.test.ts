import { describe, expect, it } from 'vitest';
import { memoryStore } from './flows/storage.js';
import {
  EMAIL_TTL_MS,
  knownLeadSession,
  openingParameters,
  recordTestPayment,
  rememberedEmail,
  rememberEmail,
  rememberLeadSession,
  setTestingFlag,
  STORAGE_KEYS,
} from './browser-storage.js';

const LEAD_ID = '0b6f2d4e-8c1a-4f3b-9d2e-7a5c6b4d3e21';

describe('hf:userEmail', () => {
  it('is kept with its timestamp and forgotten after 30 days', () => {
    const store = memoryStore();
    rememberEmail('  ada@example.com ', store, 1_000);
    expect(store.getItem(STORAGE_KEYS.userEmail)).toBe('ada@example.com');
    expect(store.getItem(STORAGE_KEYS.emailTimestamp)).toBe('1000');
    expect(rememberedEmail(store, 1_000 + EMAIL_TTL_MS - 1)).toBe('ada@example.com');
    expect(rememberedEmail(store, 1_000 + EMAIL_TTL_MS)).toBeNull();
    expect(store.getItem(STORAGE_KEYS.userEmail)).toBeNull();
    expect(store.getItem(STORAGE_KEYS.emailTimestamp)).toBeNull();
  });

  it('an email without a readable timestamp is dropped', () => {
    const store = memoryStore();
    store.setItem(STORAGE_KEYS.userEmail, 'ada@example.com');
    store.setItem(STORAGE_KEYS.emailTimestamp, 'yesterday');
    expect(rememberedEmail(store, 5)).toBeNull();
    expect(store.getItem(STORAGE_KEYS.userEmail)).toBeNull();
  });
});

describe('the lead session per tab', () => {
  it('is kept once there is a lead, in the short form', () => {
    const store = memoryStore();
    const session = {
      source: 'token' as const,
      leadToken: 'tok',
      leadId: null,
      email: 'ada@example.com',
      name: 'Ada',
      assessmentCompleted: false,
      surveyCompleted: false,
      mirrorSessionId: null,
      paymentIntentId: null,
    };
    rememberLeadSession(session, store);
    expect(knownLeadSession(store)).toBeNull();
    rememberLeadSession({ ...session, leadId: LEAD_ID }, store);
    expect(knownLeadSession(store)).toEqual({ leadId: LEAD_ID, email: 'ada@example.com', name: 'Ada', source: 'token', leadToken: 'tok' });
  });
});

describe('opening parameters', () => {
  it('reads token and ref, and turns testing mode on for a local host or test=true / testing=true', () => {
    const store = memoryStore();
    expect(openingParameters({ hostname: 'coach.example.com', search: '?token=abc&ref=community' }, store)).toEqual({
      token: 'abc',
      ref: 'community',
      testing: false,
      showTestingPanel: false,
    });
    expect(openingParameters({ hostname: 'coach.example.com', search: '?test=true' }, store)).toMatchObject({
      testing: true,
      showTestingPanel: false,
    });
    expect(openingParameters({ hostname: 'coach.example.com', search: '?testing=true' }, store)).toMatchObject({
      testing: true,
      showTestingPanel: true,
    });
    expect(openingParameters({ hostname: '127.0.0.1', search: '' }, store)).toMatchObject({
      token: null,
      testing: true,
      showTestingPanel: true,
    });
  });

  it('the local flag turns testing on anywhere, and off on a local host', () => {
    const store = memoryStore();
    setTestingFlag(true, store);
    expect(openingParameters({ hostname: 'coach.example.com', search: '' }, store).testing).toBe(true);
    setTestingFlag(false, store);
    expect(openingParameters({ hostname: 'localhost', search: '' }, store)).toMatchObject({ testing: false, showTestingPanel: true });
    expect(openingParameters({ hostname: 'localhost', search: '?testing=true' }, store).testing).toBe(true);
  });
});

describe('test payment flags', () => {
  it('sets payment_intent_id, payment_type and the test payment record', () => {
    const store = memoryStore();
    recordTestPayment({ paymentIntentId: 'pi_test_1', purpose: 'deposit', amountCents: 25_000 }, store, new Date('2025-01-01T00:00:00Z'));
    expect(store.getItem(STORAGE_KEYS.paymentIntentId)).toBe('pi_test_1');
    expect(store.getItem(STORAGE_KEYS.paymentType)).toBe('deposit');
    expect(JSON.parse(store.getItem(STORAGE_KEYS.testPayment)!)).toEqual({
      paymentIntentId: 'pi_test_1',
      purpose: 'deposit',
      amountCents: 25_000,
      at: '2025-01-01T00:00:00.000Z',
    });
    // the same payment seen again (a re-render, a reload) keeps its first record
    recordTestPayment({ paymentIntentId: 'pi_test_1', purpose: 'deposit', amountCents: 25_000 }, store, new Date('2025-01-02T00:00:00Z'));
    expect(JSON.parse(store.getItem(STORAGE_KEYS.testPayment)!).at).toBe('2025-01-01T00:00:00.000Z');
  });
});
