// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completeSurvey, startFlow } from '#machines/assessment-flow/assessment-flow.fixtures.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { useFlowSnapshot } from '#web/lib/flows/use-server-flow.js';
import { EmailCaptureStep } from './email-capture.js';

afterEach(cleanup);

type FlowActor = ReturnType<typeof startFlow>['actor'];

/** Email capture as the modal renders it from the flow's snapshot, sending to the real machine. */
function EmailCapture({ actor, send }: { actor: FlowActor; send: (event: AssessmentFlowEvent) => void }) {
  const { context, value } = useFlowSnapshot(actor);
  return (
    <EmailCaptureStep
      session={context.session}
      notice={context.notice}
      saving={statePath(value) === 'email_capture.saving'}
      canSkip={!context.session.surveyCompleted}
      onSubmit={({ email, name }) => send({ type: 'EMAIL_SUBMIT', email, name })}
      onEdited={() => send({ type: 'EMAIL_EDITED' })}
      onSkip={() => send({ type: 'CONTINUE_WITHOUT_SAVING' })}
    />
  );
}

/** A visitor who came from the community without an address, at email capture after the survey. */
function renderEmailCapture() {
  const { actor } = startFlow({ communityReferral: true });
  actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: { b1: { type: 'likert', value: 4, responseTime: 4200, timedOut: false } } });
  actor.send({ type: 'SURVEY_SUBMITTED', answers: completeSurvey });
  expect(statePath(actor.getSnapshot().value)).toBe('email_capture.editing');
  const send = vi.fn((event: AssessmentFlowEvent) => actor.send(event));
  render(<EmailCapture actor={actor} send={send} />);
  return { actor, send };
}

describe('email capture', () => {
  it('shows the flow notice and leaves the community visitor fields open, the name optional', () => {
    renderEmailCapture();
    expect(screen.getByRole('alert').textContent).toBe('No lead ID found. Please complete email capture first.');
    expect(screen.getByLabelText<HTMLInputElement>('Email').disabled).toBe(false);
    expect(screen.getByLabelText('Name (optional)')).toBeTruthy();
    // the survey is done: grading needs a lead, so there is no skipping
    expect(screen.queryByRole('button', { name: 'Continue without saving' })).toBeNull();
  });

  it('puts the machine refusal of an invalid address on the Email field, and clears it on typing', async () => {
    const user = userEvent.setup();
    const { actor, send } = renderEmailCapture();
    const email = screen.getByLabelText<HTMLInputElement>('Email');
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save and Continue' }));

    expect(send).toHaveBeenLastCalledWith({ type: 'EMAIL_SUBMIT', email: 'not-an-email', name: '' });
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(email.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe('Please enter a valid email address');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.type(email, 'x');
    expect(send).toHaveBeenLastCalledWith({ type: 'EMAIL_EDITED' });
    expect(actor.getSnapshot().context.notice).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();
  });

  it('saves a valid address: the flow creates the lead and the button says so', async () => {
    const user = userEvent.setup();
    const { actor } = renderEmailCapture();
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Save and Continue' }));
    expect(statePath(actor.getSnapshot().value)).toBe('email_capture.saving');
    expect(screen.getByRole('button', { name: /Saving/ })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Email').disabled).toBe(true);
  });

  it('shows a direct visitor the name the machine requires, and lets them skip before the survey', async () => {
    const user = userEvent.setup();
    const { context } = startFlow().actor.getSnapshot();
    expect(context.session).toMatchObject({ source: 'direct', email: null, surveyCompleted: false });
    const send = vi.fn();
    render(
      <EmailCaptureStep
        session={context.session}
        notice={{ title: null, description: 'Please enter your name' }}
        saving={false}
        canSkip={!context.session.surveyCompleted}
        onSubmit={vi.fn()}
        onEdited={vi.fn()}
        onSkip={() => send({ type: 'CONTINUE_WITHOUT_SAVING' })}
      />,
    );
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)?.textContent).toBe('Please enter your name');
    await user.click(screen.getByRole('button', { name: 'Continue without saving' }));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'CONTINUE_WITHOUT_SAVING' });
  });
});
