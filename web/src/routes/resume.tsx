import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { flowModeSchema, type FlowMode } from '#machines/protocol/common.js';
import { Button } from '../components/ui/index.js';
import { flowSlot } from '../lib/browser-storage.js';
import { useAssessment } from '../features/assessment/launcher.js';
import { api, ApiError } from '../lib/api.js';
import { FlowIdStore } from '../lib/flows/storage.js';
import { EmailLinkPage } from './unsubscribe.js';

const resumedSchema = z.object({ flowId: z.uuid(), mode: flowModeSchema });

type Outcome = 'opening' | 'expired' | 'invalid' | { failed: string };

function outcomeOf(error: unknown): Outcome {
  if (error instanceof ApiError && error.status === 400 && error.fields.token === 'has expired') return 'expired';
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return 'invalid';
  return { failed: error instanceof Error ? error.message : 'Something went wrong. Please try again.' };
}

/** An email link that opens a flow in this browser: where it posts its token, and what its pages say. */
export interface FlowLink {
  endpoint: string;
  expiredText: string;
  openingTitle: string;
  openingText: string;
}

const RESUME_LINK: FlowLink = {
  endpoint: '/api/flows/resume',
  expiredText: 'To keep your assessment private, the link in our reminder works for 7 days.',
  openingTitle: 'Opening your assessment',
  openingText: 'Taking you back to where you stopped...',
};

/**
 * `/resume?token=…`, the abandoned-assessment reminder's link: the server checks the token and
 * makes the flow this browser's (docs/decisions/0024-resume-links.md); the flow id is then kept
 * where the modal keeps a tab's flow, and the modal opens on the home page, resuming it at its
 * current screen as a reload would. An expired or broken link offers to start again. The
 * confirmation link (routes/confirm.tsx) opens its flow the same way.
 */
export function ResumePage({ link = RESUME_LINK }: { link?: FlowLink }) {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const assessment = useAssessment();
  const [outcome, setOutcome] = useState<Outcome>(token ? 'opening' : 'invalid');
  const [attempt, setAttempt] = useState(0);

  // the token leaves the address first: the modal reads ?token= as a personal link when it opens
  const openAssessment = useCallback(
    (mode: FlowMode) => void Promise.resolve(navigate('/', { replace: true })).then(() => assessment.open(mode)),
    [navigate, assessment],
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    api(link.endpoint, { method: 'POST', body: { token }, schema: resumedSchema }).then(
      (flow) => {
        if (!current) return;
        new FlowIdStore().set(flowSlot(flow.mode), flow.flowId);
        openAssessment(flow.mode);
      },
      (error: unknown) => current && setOutcome(outcomeOf(error)),
    );
    return () => {
      current = false;
    };
  }, [token, attempt, openAssessment, link.endpoint]);

  const startAgain = (
    <Button size="lg" onClick={() => openAssessment('assessment')}>
      Start the Assessment
    </Button>
  );
  if (outcome === 'expired') {
    return (
      <EmailLinkPage title="This link has expired" mark="notice" actions={startAgain}>
        <p>{link.expiredText}</p>
        <p className="text-base">You can start again now: it takes about ten minutes, and your results follow straight away.</p>
      </EmailLinkPage>
    );
  }
  if (outcome === 'invalid') {
    return (
      <EmailLinkPage title="This link does not work" mark="notice" actions={startAgain}>
        <p>It may be incomplete. Open the whole link from the email again, or start the assessment afresh.</p>
      </EmailLinkPage>
    );
  }
  if (typeof outcome === 'object') {
    const retry = () => {
      setOutcome('opening');
      setAttempt((n) => n + 1);
    };
    return (
      <EmailLinkPage title="Your assessment did not open" mark="notice" actions={<Button onClick={retry}>Try Again</Button>}>
        <p role="alert">{outcome.failed}</p>
      </EmailLinkPage>
    );
  }
  return (
    <EmailLinkPage title={link.openingTitle} actions={null}>
      <p aria-live="polite">{link.openingText}</p>
    </EmailLinkPage>
  );
}
