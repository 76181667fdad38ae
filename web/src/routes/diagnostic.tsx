import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { browserDiagnostic } from '../lib/flows/browser-machines.js';
import { startDiagnostic } from '../features/standalone/api.js';
import { Preparing } from '../features/standalone/diagnostic/page-frame.js';
import { Screens } from '../features/standalone/diagnostic/screens.js';
import { clearStoredDiagnostic, storeDiagnosticId } from '../features/standalone/storage.js';
import { useServerFlow } from '../lib/flows/use-server-flow.js';

/** The product's answer to a failed start: a browser alert with the error message. */
function alertError(error: unknown): void {
  window.alert(error instanceof Error ? error.message : String(error));
}

/**
 * `/diagnostic`: the standalone diagnostic. On open the old stored
 * diagnostic is forgotten and a new one started (diagnostic-start, hf:diagId): a diagnostic flow
 * the server runs, as the modal's, with this page sending the machine's events. The server times
 * the answers and the timed items, and grades the last answer; once it has the last one the
 * visitor goes to /survey, where the assessment goes on from this diagnostic.
 */
export function DiagnosticPage() {
  const [diagnostic, setDiagnostic] = useState<{ diagnosticId: string; flowId: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    clearStoredDiagnostic();
    startDiagnostic()
      .then(({ diagnosticId, flowId: id }) => {
        storeDiagnosticId(diagnosticId);
        setDiagnostic({ diagnosticId, flowId: id });
      })
      .catch(alertError);
  }, []);

  return (
    <>
      <title>Leadership Diagnostic | Leadership Coaching</title>
      {diagnostic ? <StandaloneDiagnostic {...diagnostic} /> : <Preparing />}
    </>
  );
}

function StandaloneDiagnostic({ flowId, diagnosticId }: { flowId: string; diagnosticId: string }) {
  const navigate = useNavigate();
  const flow = useServerFlow('diagnostic', browserDiagnostic, { flowId });
  useEffect(() => {
    if (flow.status === 'error' && flow.error) alertError(flow.error);
  }, [flow.status, flow.error]);
  // the server has every answer (it grades them now, or already has): on to the survey,
  // where the assessment opens on the qualification survey for this diagnostic
  const finished = flow.serverState === 'grading' || flow.serverState === 'graded';
  useEffect(() => {
    // nothing waits for the navigation: the router shows any failure itself
    if (finished && flow.pending === 0) void navigate('/survey', { state: { diagnosticId } });
  }, [finished, flow.pending, navigate, diagnosticId]);
  if (!flow.actor) return <Preparing />;
  return <Screens flow={flow} actor={flow.actor} />;
}
