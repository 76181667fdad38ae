import { describe, expect, it } from 'vitest';
import { flowConflictResponseSchema, flowEventBodySchemas, flowStartBodySchema } from './api.js';
import { flowSocketClientFrameSchema, flowSocketServerFrameSchema } from './socket.js';

const FLOW_ID = '3d6f9a2b-1c4e-4f8a-9b7d-2e5c8a1f4b6d';

describe('flow API bodies', () => {
  it('fills the start body defaults', () => {
    expect(flowStartBodySchema.parse({})).toEqual({
      machine: 'assessmentFlow',
      mode: 'assessment',
      testing: false,
      knownSession: null,
    });
    expect(flowStartBodySchema.safeParse({ machine: 'payment' }).success).toBe(false);
  });

  it('accepts only browser events for each machine', () => {
    expect(flowEventBodySchemas.assessmentFlow.safeParse({ event: { type: 'CONTINUE' } }).success).toBe(true);
    expect(flowEventBodySchemas.assessmentFlow.safeParse({ event: { type: 'HOMEWORK_SENT' } }).success).toBe(false);
    expect(flowEventBodySchemas.mirror.safeParse({ event: { type: 'REPLY_FAILED' } }).success).toBe(false);
    expect(flowEventBodySchemas.diagnostic.safeParse({ event: { type: 'START_TIMED' }, expectedVersion: -1 }).success).toBe(false);
  });

  it('shapes a 409 like every other error, with the flow to resync from', () => {
    const flow = { flowId: FLOW_ID, machine: 'assessmentFlow', version: 3, state: 'intro', snapshot: { value: 'intro' } };
    expect(flowConflictResponseSchema.safeParse({ statusCode: 409, error: 'Conflict', message: 'Not now', flow }).success).toBe(true);
  });
});

describe('flow socket frames', () => {
  it('lets a browser subscribe to a flow and keeps the existing ping', () => {
    expect(flowSocketClientFrameSchema.safeParse({ type: 'subscribe', flowId: FLOW_ID }).success).toBe(true);
    expect(flowSocketClientFrameSchema.safeParse({ type: 'ping' }).success).toBe(true);
    expect(flowSocketClientFrameSchema.safeParse({ type: 'subscribe', flowId: 'nope' }).success).toBe(false);
  });

  it('pushes events with their version and reports errors', () => {
    const push = {
      type: 'event',
      flowId: FLOW_ID,
      version: 4,
      origin: 'worker',
      event: { type: 'GRADED', result: {} },
      state: 'results',
      snapshot: { value: 'results' },
    };
    expect(flowSocketServerFrameSchema.parse(push)).toEqual(push);
    expect(flowSocketServerFrameSchema.safeParse({ type: 'error', error: 'Unknown flow' }).success).toBe(true);
  });
});
