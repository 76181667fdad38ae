import type { EventFromLogic } from 'xstate';
import type { browserDiagnostic } from '#web/lib/flows/browser-machines.js';

/** Sends a visitor's event to the diagnostic flow; false when the flow does not take it now. */
export type DiagnosticSend = (event: EventFromLogic<typeof browserDiagnostic>) => boolean;
