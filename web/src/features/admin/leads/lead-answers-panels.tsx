import { formatDateTime } from '../api.js';
import type { DiagnosticAnswer, LeadDetail } from './leads-api.js';
import { DiagnosticReportLink } from './lead-reports.js';
import { EmptyState, Panel } from '../states.js';

/** A question and its answer: stacked on a phone, side by side from md up. */
const ROW = 'grid gap-1 py-3 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] md:gap-6';

/** Every survey question in the survey's order, its text beside the lead's answer. */
export function SurveyPanel({ surveys }: { surveys: LeadDetail['surveys'] }) {
  return (
    <Panel title="Survey" id="lead-survey">
      {surveys.length === 0 ? (
        <EmptyState>No survey responses</EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          {surveys.map((survey) => (
            <div key={survey.id}>
              <p className="text-sm text-muted">
                Answered {formatDateTime(survey.created_at)}
                {survey.survey_score !== null && ` · survey score ${survey.survey_score}`}
                {survey.shape === 'older' && ' · the older eight-answer survey, graded by its own points and tier rule'}
              </p>
              <dl className="divide-y divide-line/70" aria-label={`Survey answers of ${formatDateTime(survey.created_at)}`}>
                {survey.answers.map((answer) => (
                  <div key={answer.id} className={ROW}>
                    <dt className="text-sm text-ink-700">{answer.question}</dt>
                    <dd className="min-w-0 font-semibold break-words whitespace-pre-wrap text-ink">
                      {answer.answer ?? <span className="font-normal text-muted italic">Not answered</span>}
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </div>
      )}
    </Panel>
  );
}

function AnswerText({ answer }: { answer: DiagnosticAnswer }) {
  const seconds = `${(answer.responseMs / 1000).toFixed(1)} s`;
  return (
    <div className="min-w-0">
      {Array.isArray(answer.answer) ? (
        <ol className="list-decimal space-y-0.5 pl-5 font-semibold text-ink" aria-label="Ranked first to last">
          {answer.answer.map((label, i) => (
            <li key={i} className="break-words">
              {label}
            </li>
          ))}
        </ol>
      ) : (
        <p className="font-semibold break-words text-ink">{answer.answer}</p>
      )}
      <p className="mt-0.5 text-xs text-muted">
        {answer.confidence && `Confidence ${answer.confidence} · `}
        {answer.timedOut ? <span className="text-danger">Time ran out (answered for them)</span> : `Answered in ${seconds}`}
      </p>
    </div>
  );
}

/** Each diagnostic's answers in the order the lead saw them, by section, statements beside answers in words. */
export function DiagnosticAnswersPanel({ diagnostics }: { diagnostics: LeadDetail['diagnostics'] }) {
  return (
    <Panel title="Diagnostic answers" id="lead-answers">
      {diagnostics.length === 0 ? (
        <EmptyState>No diagnostic answers</EmptyState>
      ) : (
        <div className="flex flex-col gap-8">
          {diagnostics.map((diagnostic) => (
            <div key={diagnostic.id} className="flex flex-col gap-5">
              <p className="text-sm text-muted">
                Taken {formatDateTime(diagnostic.started_at)} · question bank {diagnostic.bank_version}
                {diagnostic.has_report && (
                  <>
                    {' · '}
                    <DiagnosticReportLink diagnosticId={diagnostic.id} />
                  </>
                )}
              </p>
              {diagnostic.sections.map((section) => (
                <section key={section.title} aria-label={section.title}>
                  <h3 className="font-serif text-lg tracking-tight text-ink">{section.title}</h3>
                  <ol className="divide-y divide-line/70">
                    {section.answers.map((answer) => (
                      <li key={answer.id} className={ROW}>
                        <p className="text-sm break-words text-ink-700">{answer.question}</p>
                        <AnswerText answer={answer} />
                      </li>
                    ))}
                  </ol>
                </section>
              ))}
            </div>
          ))}
        </div>
      )}
    </Panel>
  );
}
