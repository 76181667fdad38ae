import { assessmentFlowEffects } from './assessment-flow/assessment-flow.effects.js';
import { assessmentFlowMachine } from './assessment-flow/assessment-flow.machine.js';
import { diagnosticEffects } from './diagnostic/diagnostic.effects.js';
import { diagnosticMachine } from './diagnostic/diagnostic.machine.js';
import type { Effect } from './effect.js';
import { mirrorEffects } from './mirror/mirror.effects.js';
import { mirrorMachine } from './mirror/mirror.machine.js';
import type { FlowMachineName } from './protocol/api.js';

export * from './assessment-flow/assessment-flow.machine.js';
export * from './contact-form/contact-form.machine.js';
export * from './diagnostic/diagnostic.machine.js';
export * from './local-fallback/local-fallback.machine.js';
export * from './mirror/mirror.machine.js';
export * from './monitor-connection/monitor-connection.machine.js';
export * from './protocol/index.js';
export * from './sign-in/sign-in.machine.js';

/**
 * The machines the server runs as flows, by the name the flows table stores. These three name their
 * effects as actions and take results as events, so they run on XState's pure transition
 * functions; the browser-only machines invoke actors instead and are not listed.
 */
export const flowMachines = {
  assessmentFlow: assessmentFlowMachine,
  diagnostic: diagnosticMachine,
  mirror: mirrorMachine,
} as const satisfies Record<FlowMachineName, unknown>;

/**
 * The effects each flow machine names, as it declares them: the ones the server carries out (the
 * server's table in core/flows/effects.ts is typed from these, by name and params) and the ones it
 * leaves to the browser.
 */
export const flowEffects = {
  assessmentFlow: assessmentFlowEffects,
  diagnostic: diagnosticEffects,
  mirror: mirrorEffects,
} as const satisfies Record<FlowMachineName, Readonly<Record<string, Effect<never>>>>;
