import type { ReactNode } from 'react';
import type { ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import type { browserAssessmentFlow } from '../machines.js';

/** The assessment flow as the modal runs it (useServerFlow's handle). */
export type AssessmentFlow = ServerFlowHandle<ReturnType<typeof browserAssessmentFlow>>;

/** Renders the frame of the modal: a title and a body. */
export type Frame = (title: string, body: ReactNode, step: string) => ReactNode;
