import { useState, type FormEvent } from 'react';
import { Button, Field } from '#web/components/ui/index.js';
import { assessmentFlowNotices } from '#machines/assessment-flow/assessment-flow.copy.js';
import type { LeadSession, Notice } from '#machines/protocol/common.js';
import { NoticeBox, StepEyebrow } from '../ui.js';

/**
 * email_capture ('Save Your Details'): the machine validates and its notice is
 * shown on the field it concerns; typing clears it (EMAIL_EDITED). Fields are disabled for a
 * community-source visitor whose details came from the community platform; a community visitor
 * who arrived by a bare referral has no email on file yet, so the fields stay open for them
 * (disabled empty fields would leave them no way forward).
 */
export function EmailCaptureStep({
  session,
  notice,
  saving,
  canSkip,
  onSubmit,
  onEdited,
  onSkip,
}: {
  session: LeadSession;
  notice: Notice | null;
  saving: boolean;
  /** 'Continue without saving' is offered only before the survey is done. */
  canSkip: boolean;
  onSubmit: (details: { email: string; name: string }) => void;
  onEdited: () => void;
  onSkip: () => void;
}) {
  const [email, setEmail] = useState(session.email ?? '');
  const [name, setName] = useState(session.source === 'community' && !session.name ? '' : (session.name ?? ''));
  const locked = session.source === 'community' && Boolean(session.email);
  const description = notice?.description ?? null;
  const emailError = description === assessmentFlowNotices.invalidEmail.description ? description : null;
  const nameError = description === assessmentFlowNotices.nameRequired.description ? description : null;
  const other = notice && !emailError && !nameError ? notice : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!saving) onSubmit({ email, name });
  };
  return (
    <form method="post" onSubmit={submit} className="flex flex-col gap-6" noValidate>
      <div className="flex flex-col gap-2">
        <StepEyebrow>Almost there</StepEyebrow>
        <p className="text-lg leading-relaxed text-ink">Where should we send your results? We need an email address to save them.</p>
      </div>
      <NoticeBox notice={other} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          error={emailError}
          disabled={locked || saving}
          onChange={(e) => {
            setEmail(e.target.value);
            onEdited();
          }}
        />
        <Field
          label="Name"
          autoComplete="name"
          value={name}
          error={nameError}
          optional={session.source === 'community'}
          disabled={locked || saving}
          onChange={(e) => {
            setName(e.target.value);
            onEdited();
          }}
        />
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button type="submit" size="lg" loading={saving} loadingText="Saving...">
          Save and Continue
        </Button>
        {canSkip && (
          <Button variant="ghost" onClick={onSkip} disabled={saving}>
            Continue without saving
          </Button>
        )}
      </div>
    </form>
  );
}
