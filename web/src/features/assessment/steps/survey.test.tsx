// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { qualificationSurvey } from '#machines/content/index.js';
import type { AssessmentFlowEvent } from '#machines/protocol/assessment-flow.js';
import { knownVisitorFlow } from '../live/flow.fixtures.js';
import { SurveyStep } from './survey.js';

afterEach(cleanup);

const { questions } = qualificationSurvey;
const choices = questions.filter((q) => q.kind === 'choice');
const texts = questions.filter((q) => q.kind !== 'choice');

/** The survey as the modal shows it for a flow that has just finished its diagnostic. */
function renderSurvey() {
  const { actor } = knownVisitorFlow();
  actor.send({ type: 'DIAGNOSTIC_COMPLETED', answers: { b1: { type: 'likert', value: 4, responseTime: 4200, timedOut: false } } });
  expect(actor.getSnapshot().value).toBe('survey');
  const send = vi.fn((event: AssessmentFlowEvent) => actor.send(event));
  render(<SurveyStep initial={actor.getSnapshot().context.survey} onSubmit={(answers) => send({ type: 'SURVEY_SUBMITTED', answers })} />);
  return { actor, send };
}

describe('the qualification survey', () => {
  it('asks every question, the choices as radio groups, and counts what is left', () => {
    renderSurvey();
    for (const question of choices) {
      const group = screen.getByRole('group', { name: new RegExp(question.prompt.replace(/[$.*+?()[\]{}|\\^]/g, '\\$&')) });
      expect(within(group).getAllByRole('radio')).toHaveLength(question.options.length);
    }
    expect(screen.getAllByRole('textbox')).toHaveLength(texts.length);
    const required = questions.filter((q) => q.required).length;
    expect(screen.getByText(`${required} required questions left.`)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'See My Results' }).disabled).toBe(true);
  });

  it('enables See My Results once the required questions are answered, and sends the trimmed answers', async () => {
    const user = userEvent.setup();
    const { actor, send } = renderSurvey();
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'See My Results' });
    for (const question of choices) await user.click(screen.getByRole('radio', { name: question.options[0]!.label }));
    expect(screen.getByText('1 required question left.')).toBeTruthy();
    expect(submit.disabled).toBe(true);

    const [firstText, ...optional] = screen.getAllByRole('textbox');
    await user.type(firstText!, '  Lead the new team well.  ');
    expect(screen.getByText('All required questions answered.')).toBeTruthy();
    expect(optional.length).toBeGreaterThan(0);
    await user.click(submit);

    const answers = Object.fromEntries([...choices.map((q) => [q.id, q.options[0]!.id]), [texts[0]!.id, 'Lead the new team well.']]);
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'SURVEY_SUBMITTED', answers });
    // the machine takes what the button allowed
    expect(actor.getSnapshot().value).toEqual({ processing: 'grading' });
  });

  it('keeps a choice that was changed', async () => {
    const user = userEvent.setup();
    renderSurvey();
    const first = choices[0]!;
    await user.click(screen.getByRole('radio', { name: first.options[0]!.label }));
    await user.click(screen.getByRole('radio', { name: first.options[1]!.label }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: first.options[1]!.label }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: first.options[0]!.label }).checked).toBe(false);
  });
});
