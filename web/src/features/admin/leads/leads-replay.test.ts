import { describe, expect, it } from 'vitest';
import { resultFor } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import { replayFlow } from './leads-replay.js';

const at = '2026-01-01T00:00:00Z';
const events = [
  { type: 'CAPTURE_SUBMIT', payload: { name: 'Ada', email: 'ada@example.com' } },
  { type: 'LEAD_SAVED', payload: { leadId: '3f1c1c2e-0000-4000-8000-000000000001' } },
  { type: 'START_DIAGNOSTIC', payload: {} },
  { type: 'DIAGNOSTIC_COMPLETED', payload: { answers: { b1: { type: 'likert', value: 4, responseTime: 4000, timedOut: false } } } },
  {
    type: 'SURVEY_SUBMITTED',
    payload: {
      answers: {
        q1_investment: 'ready_now',
        q2_time: 'start_immediately',
        q3_urgency: 'critical',
        q4_mindset: 'challenge',
        q5_success: 'x',
      },
    },
  },
  { type: 'GRADED', payload: { result: resultFor('book_call') } },
].map((event, i) => ({ ...event, seq: i + 1, origin: 'client', state_after: 'recorded', created_at: at }));

describe('replayFlow', () => {
  it('steps the shared assessment machine through recorded events', () => {
    const replay = replayFlow('assessmentFlow', events);
    expect(replay.problem).toBeNull();
    expect(replay.initial).toMatch(/^capture/);
    expect(replay.steps).toHaveLength(6);
    expect(replay.steps.every((step) => typeof step.replayed === 'string' && step.replayed.length > 0)).toBe(true);
    expect(replay.steps[2]!.replayed).toMatch(/^diagnostic/);
    expect(replay.steps[4]!.replayed).toMatch(/^processing/);
    expect(replay.steps[5]!.replayed).toBe('results');
  });

  it('falls back to the recorded states for an unknown machine', () => {
    const replay = replayFlow('nope', events);
    expect(replay.initial).toBeNull();
    expect(replay.problem).toMatch(/No shared machine/);
    expect(replay.steps.map((s) => s.recorded)).toEqual(Array(6).fill('recorded'));
  });
});
