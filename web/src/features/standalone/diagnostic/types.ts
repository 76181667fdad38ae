import type { ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import type { browserDiagnostic } from '#web/lib/flows/browser-machines.js';

/** The standalone diagnostic's server flow, as useServerFlow gives it. */
export type DiagnosticFlow = ServerFlowHandle<typeof browserDiagnostic>;
