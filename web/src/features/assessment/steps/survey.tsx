import { useState, type FormEvent } from 'react';
import { Button, Field, cx } from '#web/components/ui/index.js';
import { missingSurveyAnswers } from '#machines/assessment-flow/assessment-flow.guards.js';
import { qualificationSurvey } from '#machines/content/index.js';
import type { SurveyAnswers } from '#machines/protocol/common.js';
import { StepEyebrow } from '../ui.js';

/**
 * survey ('Qualification Survey'): q1-q4 as single choices, q5-q7 as text; q1 to q5 are
 * required (the machine's missingSurveyAnswers decides, so the button and the machine agree).
 */
export function SurveyStep({ initial, onSubmit }: { initial: SurveyAnswers; onSubmit: (answers: SurveyAnswers) => void }) {
  const [answers, setAnswers] = useState<SurveyAnswers>(initial);
  const missing = missingSurveyAnswers(answers);
  const set = (id: string, value: string) => setAnswers((current) => ({ ...current, [id]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing.length === 0) onSubmit(Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, v.trim()])));
  };
  return (
    <form method="post" onSubmit={submit} className="flex flex-col gap-8" noValidate>
      <div className="flex flex-col gap-2">
        <StepEyebrow>Last part · about 2-3 minutes</StepEyebrow>
        <p className="text-base leading-relaxed text-muted">
          A few questions about where you are, so the next step we suggest fits. Questions marked optional can be left blank.
        </p>
      </div>
      {qualificationSurvey.questions.map((question, index) =>
        question.kind === 'choice' ? (
          <fieldset key={question.id} className="flex min-w-0 flex-col gap-3">
            <legend className="mb-3 text-base leading-snug font-semibold text-ink">
              <span className="mr-2 text-brass-deep">{index + 1}.</span>
              {question.prompt}
            </legend>
            <div className="flex flex-col gap-2">
              {question.options.map((option) => {
                const checked = answers[question.id] === option.id;
                return (
                  <label
                    key={option.id}
                    className={cx(
                      'flex cursor-pointer items-start gap-3 rounded-2xl border px-4 py-3 transition-colors has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-brass',
                      checked ? 'border-ink bg-sand' : 'border-line bg-white hover:border-ink/40',
                    )}
                  >
                    <input
                      type="radio"
                      name={question.id}
                      value={option.id}
                      checked={checked}
                      required={question.required}
                      onChange={() => set(question.id, option.id)}
                      className="mt-1 size-4 shrink-0 accent-ink focus-visible:outline-none"
                    />
                    <span className="text-[0.95rem] leading-relaxed text-ink">{option.label}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        ) : (
          <Field
            key={question.id}
            multiline
            rows={3}
            label={
              <>
                <span className="mr-2 text-brass-deep">{index + 1}.</span>
                {question.prompt}
              </>
            }
            optional={!question.required}
            required={question.required}
            placeholder={question.placeholder}
            maxLength={2000}
            value={answers[question.id] ?? ''}
            onChange={(e) => set(question.id, e.target.value)}
          />
        ),
      )}
      <div className="flex flex-col gap-3 border-t border-line pt-6 sm:flex-row sm:items-center">
        <Button type="submit" size="lg" disabled={missing.length > 0}>
          See My Results
        </Button>
        <p className="text-sm text-muted" aria-live="polite">
          {missing.length === 0
            ? 'All required questions answered.'
            : `${missing.length} required ${missing.length === 1 ? 'question' : 'questions'} left.`}
        </p>
      </div>
    </form>
  );
}
