import { and, fromPromise, not, setup } from 'xstate';
import { browserEffect } from '../effect.js';
import type { FlowResult } from '../protocol/assessment-flow.js';

/** The longest the processing notice promises (up to 3 minutes); after it the browser grades. */
export const PROCESSING_WINDOW_MS = 3 * 60 * 1000;
/** How long an unreachable server is waited for at processing before the browser grades. */
export const OFFLINE_GRACE_MS = 8000;

/**
 * What the browser tells the policy whenever it changes: whether its copy of the assessment flow
 * waits for grading (processing.grading), and whether its last event could not reach the server.
 */
export type LocalFallbackEvent = { type: 'FLOW_CHANGED'; grading: boolean; offline: boolean };

/**
 * When the browser grades an assessment itself: the server
 * could not be reached at the survey for OFFLINE_GRACE_MS, or no result came within
 * PROCESSING_WINDOW_MS. The web provides `gradeLocally` (the shared grading engine, marked
 * fallback) and `showLocalResult`, which puts the result on screen without sending it; the
 * server's own result replaces it once the server has graded the flow. Leaving grading at any
 * point (the server's result arrived) stands the policy down.
 */
export const localFallbackMachine = setup({
  types: {
    events: {} as LocalFallbackEvent,
  },
  actors: {
    gradeLocally: fromPromise<FlowResult>(() => Promise.reject(new Error('gradeLocally is not provided'))),
  },
  actions: {
    showLocalResult: browserEffect<{ result: FlowResult }>(),
  },
  guards: {
    isGrading: ({ event }) => event.grading,
    isOffline: ({ event }) => event.offline,
  },
  delays: {
    processingWindow: PROCESSING_WINDOW_MS,
    offlineGrace: OFFLINE_GRACE_MS,
  },
}).createMachine({
  id: 'localFallback',
  initial: 'idle',
  states: {
    idle: {
      on: {
        FLOW_CHANGED: [
          { guard: and(['isGrading', 'isOffline']), target: 'waiting.offline' },
          { guard: 'isGrading', target: 'waiting' },
        ],
      },
    },
    // The window runs from the first moment at grading, whether or not the connection drops meanwhile.
    waiting: {
      initial: 'online',
      after: { processingWindow: { target: 'grading' } },
      on: { FLOW_CHANGED: { guard: not('isGrading'), target: 'idle' } },
      states: {
        online: {
          on: { FLOW_CHANGED: { guard: and(['isGrading', 'isOffline']), target: 'offline' } },
        },
        offline: {
          after: { offlineGrace: { target: '#localFallback.grading' } },
          on: { FLOW_CHANGED: { guard: and(['isGrading', not('isOffline')]), target: 'online' } },
        },
      },
    },
    grading: {
      invoke: {
        src: 'gradeLocally',
        onDone: { target: 'shown', actions: { type: 'showLocalResult', params: ({ event }) => ({ result: event.output }) } },
        onError: { target: 'idle' },
      },
      // the server's result came first: it is the one to show
      on: { FLOW_CHANGED: { guard: not('isGrading'), target: 'idle' } },
    },
    // The local result went to the screen; the policy acts again only once the flow has left grading.
    shown: {
      on: { FLOW_CHANGED: { guard: not('isGrading'), target: 'idle' } },
    },
  },
});
