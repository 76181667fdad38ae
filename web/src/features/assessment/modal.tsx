import '../../lib/zod-jitless.js';
import { CloseButton, Dialog, DialogBackdrop, DialogPanel, DialogTitle, Switch } from '@headlessui/react';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { cx } from '../../components/ui/index.js';
import { parseFlow, type FlowStartInput } from '../../lib/flows/client.js';
import { FlowIdStore } from '../../lib/flows/storage.js';
import { sharedFlowClient } from '../../lib/flows/use-server-flow.js';
import { loadSession } from '../../lib/session.js';
import { flowSlot, forgetLeadSession, knownLeadSession, openingParameters, setTestingFlag } from '../../lib/browser-storage.js';
import { hideEarlyCapture, submittedEarlyCapture } from './early-capture.js';
import type { AssessmentMode } from './assessment-mode.js';
import { LiveAssessment } from './live-assessment.js';
import { CloseIcon, FRAME, FrameEyebrow } from './modal-frame.js';
import type { Frame, TestingSwitch } from './live/types.js';

/**
 * The assessment modal: a Headless UI dialog (focus trapped, returned to the
 * opener on close, Esc and the close button close it) around the shared assessmentFlow machine,
 * run as a server flow. Closing keeps the flow: opening again, reloading or another tab resumes
 * it at the same step and question. A returning visitor's new flow opens at completed_results:
 * the server finds their completed assessment (testing mode never shows it).
 */
export default function AssessmentModal({
  mode,
  diagnosticId,
  onClose,
}: {
  mode: AssessmentMode;
  diagnosticId: string | null;
  onClose: () => void;
}) {
  const ids = useMemo(() => new FlowIdStore(), []);
  // what the page's address says when the modal opens, and this tab's (or a recent other tab's) flow
  const [params] = useState(() => openingParameters({ hostname: window.location.hostname, search: window.location.search }));
  // going on from a standalone diagnostic is a new flow, not the one this tab had
  const [session, setSession] = useState(() => ({ resume: diagnosticId ? null : ids.get(flowSlot(mode)), key: 0 }));

  // read when a session starts, so that a reset (which forgets the lead session) starts afresh
  const start: FlowStartInput = {
    machine: 'assessmentFlow',
    mode,
    testing: params.testing,
    ...(params.token ? { token: params.token } : {}),
    ...(params.ref ? { ref: params.ref } : {}),
    knownSession: knownLeadSession(),
    ...(diagnosticId && session.key === 0 ? { diagnosticId } : {}),
  };

  // the early capture screen, if it was open, gives way to the modal now drawn over it, which
  // opens on the flow that screen started and sent the capture to
  useEffect(hideEarlyCapture, []);
  const [started] = useState(() => {
    const early = mode === 'assessment' && !diagnosticId ? submittedEarlyCapture() : null;
    return early ? early.flow.then(parseFlow) : null;
  });

  const startOver = useCallback(() => {
    ids.forget(flowSlot(mode));
    forgetLeadSession();
    setSession((current) => ({ resume: null, key: current.key + 1 }));
  }, [ids, mode]);

  const frame: Frame = (title, body, step, testing) => (
    <ModalFrame
      title={title}
      step={step}
      onClose={onClose}
      testingPanel={params.showTestingPanel ? <TestingPanel onReset={startOver} flow={testing} /> : null}
    >
      {body}
    </ModalFrame>
  );

  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <DialogBackdrop transition className={cx(FRAME.overlay, 'transition-opacity duration-200 data-closed:opacity-0')} />
      <div className={FRAME.placement}>
        <DialogPanel
          transition
          className={cx(FRAME.panel, 'transition duration-200 ease-out data-closed:translate-y-4 data-closed:opacity-0')}
        >
          <LiveAssessment
            key={session.key}
            mode={mode}
            resume={session.resume}
            start={start}
            started={session.key === 0 ? started : null}
            sessionKey={String(session.key)}
            frame={frame}
          />
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The dialog's title bar and scrolling body; a new step moves focus to its title and scrolls to the top. */
function ModalFrame({
  title,
  step,
  onClose,
  testingPanel,
  children,
}: {
  title: string;
  step: string;
  onClose: () => void;
  testingPanel: ReactNode;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  const topLevel = step.split('.')[0];
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    body.current?.scrollTo({ top: 0 });
    heading.current?.focus({ preventScroll: true });
  }, [topLevel]);
  return (
    <>
      {/* the dialog's title bar, not a <header>: that would be a second banner landmark beside the site's */}
      <div className={FRAME.header}>
        <div className="flex min-w-0 flex-col gap-1">
          <FrameEyebrow />
          <DialogTitle ref={heading} tabIndex={-1} className={FRAME.title}>
            {title}
          </DialogTitle>
        </div>
        <CloseButton onClick={onClose} className={FRAME.close} aria-label="Close">
          <CloseIcon />
        </CloseButton>
      </div>
      <div ref={body} className={FRAME.body} data-step={step}>
        {children}
        {testingPanel}
      </div>
    </>
  );
}

/**
 * Testing mode's tools: only on a local host or with ?testing=true.
 * The switch applies to the flow on screen until its lead is captured (the lead is then written
 * as a test lead or a real one, for good), and to the flows this browser starts next.
 * Reset starts a new flow with no lead session; Purge deletes test-tagged leads
 * of the last 7 days (the server allows it to a signed-in admin, or on this machine outside production).
 */
function TestingPanel({ onReset, flow }: { onReset: () => void; flow: TestingSwitch | undefined }) {
  const [next, setNext] = useState(() => openingParameters({ hostname: window.location.hostname, search: window.location.search }).testing);
  const testing = flow?.switchable === false ? flow.on : (flow?.on ?? next);
  const [purge, setPurge] = useState<string | null>(null);
  return (
    <details className="mt-10 rounded-2xl border border-dashed border-line bg-white/60 px-4 py-3 text-sm text-muted">
      <summary className="cursor-pointer font-semibold text-ink">Testing mode</summary>
      <div className="mt-4 flex flex-col gap-4">
        <div className="flex items-center justify-between gap-4">
          <span id="testing-switch-label">Test leads, and stored results cleared on open</span>
          <Switch
            checked={testing}
            disabled={flow?.switchable === false}
            onChange={(on) => {
              setNext(on);
              setTestingFlag(on);
              flow?.set(on);
            }}
            aria-labelledby="testing-switch-label"
            className={cx(
              'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors data-disabled:opacity-50',
              testing ? 'bg-ink' : 'bg-ink/25',
            )}
          >
            <span
              className={cx('inline-block size-4 rounded-full bg-white transition-transform', testing ? 'translate-x-6' : 'translate-x-1')}
            />
          </Switch>
        </div>
        {flow?.switchable === false && (
          <p>
            This assessment's lead is saved as a {flow.on ? 'test' : 'real'} lead. Reset flow to start one as a {next ? 'test' : 'real'}{' '}
            lead.
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            onClick={onReset}
            className="rounded-full border border-ink/25 px-4 py-2 font-semibold text-ink hover:border-ink/50"
          >
            Reset flow
          </button>
          <button
            type="button"
            onClick={() => {
              setPurge('Purging...');
              loadSession()
                .then((session) => sharedFlowClient().purgeTestLeads(session.csrfToken))
                .then(
                  (deleted) => setPurge(`Deleted ${deleted} test ${deleted === 1 ? 'lead' : 'leads'}.`),
                  (error: Error) => setPurge(error.message),
                );
            }}
            className="rounded-full border border-ink/25 px-4 py-2 font-semibold text-ink hover:border-ink/50"
          >
            Purge test leads
          </button>
        </div>
        {purge && (
          <p role="status" className="text-ink">
            {purge}
          </p>
        )}
      </div>
    </details>
  );
}
