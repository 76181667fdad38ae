import type { ReactNode } from 'react';
import type { ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import type { browserAssessmentFlow } from '#web/lib/flows/browser-machines.js';

/** The assessment flow as the modal runs it (useServerFlow's handle). */
export type AssessmentFlow = ServerFlowHandle<ReturnType<typeof browserAssessmentFlow>>;

/** The flow on screen's test-or-real, for the testing panel: switchable until its lead is captured. */
export interface TestingSwitch {
  on: boolean;
  switchable: boolean;
  set: (on: boolean) => void;
}

/** Renders the frame of the modal: a title and a body, and the running flow's testing switch once there is one. */
export type Frame = (title: string, body: ReactNode, step: string, testing?: TestingSwitch) => ReactNode;
