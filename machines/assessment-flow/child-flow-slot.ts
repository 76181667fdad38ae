import type { FlowMachineName } from '../protocol/api.js';
import type { AssessmentFlowContext } from './assessment-flow.context.js';

/** The assessment flow's steps that run a flow of their own, each named after the machine it runs. */
export const childFlowSteps = ['diagnostic', 'mirror'] as const satisfies readonly FlowMachineName[];
/** A step that runs a child flow. */
export type ChildFlowStep = (typeof childFlowSteps)[number];

/** The parent flow as a browser holds it: its id and the context of the server's copy. */
export interface ParentFlow {
  flowId: string;
  context: Pick<AssessmentFlowContext, 'childFlowVisit'>;
}

/** The start of every slot of a parent's child flows of `step`, whatever the visit. */
export function childFlowSlotPrefix(parentFlowId: string, step: ChildFlowStep): string {
  return `child:${parentFlowId}:${step}:`;
}

/**
 * The slot (FlowIdStore) a browser keeps the child flow of a visit of `step` under: the parent,
 * the step and the visit. It changes only when the parent enters the step again (a retake, coming
 * back to it), never when the server or a worker applies an event to the parent (a reminder, a
 * booking, a result), which bumps the parent's version: so the diagnostic or Mirror on screen
 * carries on, and a reload or a second tab resumes the same child flow (decision 0034). The
 * format is the one browsers wrote when the parent's version keyed it, which is what a flow moved
 * up from machine version 4 counts its visits on from.
 */
export function childFlowSlot(parent: ParentFlow, step: ChildFlowStep): string {
  return `${childFlowSlotPrefix(parent.flowId, step)}${parent.context.childFlowVisit}`;
}
