import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field } from '#web/components/ui/index.js';
import type { Notice } from '#machines/protocol/common.js';
import { NoticeBox, StepEyebrow, TestLeadNote } from '../ui.js';

/**
 * capture ('Welcome'): name and email, both required; no format check at this step, so the button is simply disabled until both have text.
 */
export function CaptureStep({
  mode,
  testing,
  saving,
  notice,
  defaultEmail,
  early = null,
  sendEarly = false,
  onSubmit,
}: {
  mode: 'assessment' | 'mirror';
  /** Testing mode: the lead will be a test lead, which gets no email, so none is promised. */
  testing: boolean;
  saving: boolean;
  notice: Notice | null;
  defaultEmail: string;
  /** What was typed on the early screen (early-capture.ts) before this code loaded: shown, and sent once `sendEarly`. */
  early?: { name: string; email: string } | null;
  sendEarly?: boolean;
  onSubmit: (details: { name: string; email: string }) => void;
}) {
  const [name, setName] = useState(early?.name ?? '');
  const [email, setEmail] = useState(early?.email ?? defaultEmail);
  const sent = useRef(false);
  useEffect(() => {
    if (!early || !sendEarly || sent.current) return;
    sent.current = true;
    onSubmit(early);
  }, [early, sendEarly, onSubmit]);
  const ready = name.trim() !== '' && email.trim() !== '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && !saving) onSubmit({ name, email });
  };
  return (
    <form method="post" onSubmit={submit} className="flex flex-col gap-6" noValidate>
      <div className="flex flex-col gap-3">
        <StepEyebrow>{mode === 'mirror' ? 'The Decision Mirror' : 'Free leadership diagnostic'}</StepEyebrow>
        <p className="text-lg leading-relaxed text-ink">
          {mode === 'mirror'
            ? 'Think through a decision you are facing with five reflective questions, then see how you lead under pressure.'
            : 'In about ten minutes you will see how you decide, delegate and build trust under pressure, and the one next step that fits you best.'}
        </p>
        {testing ? (
          <TestLeadNote />
        ) : (
          <p className="text-sm leading-relaxed text-muted" data-capture-promise="">
            We will send your results to this address. No spam, and you can unsubscribe at any time.
          </p>
        )}
      </div>
      <NoticeBox notice={notice} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          disabled={saving}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          disabled={saving}
        />
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button type="submit" size="lg" disabled={!ready} loading={saving} loadingText="Starting...">
          {mode === 'mirror' ? 'Start the Mirror' : 'Start My Assessment'}
        </Button>
        {mode === 'assessment' && <p className="text-sm text-muted">Takes 8-12 minutes. Your progress is saved as you go.</p>}
      </div>
    </form>
  );
}
