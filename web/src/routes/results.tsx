import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { ButtonLink, Card, Eyebrow, buttonClasses } from '../components/ui/index.js';
import { ScoreChart } from '../components/score-chart.js';
import { getResults, reportUrl, type DiagnosticResult } from '../features/standalone/api.js';
import { storedDiagnosticId } from '../features/standalone/storage.js';

/** The note shown when the fallback flag is set. */
const FALLBACK_NOTE = 'Results generated using our comprehensive local assessment system.';

type Load = { status: 'loading' } | { status: 'done'; result: DiagnosticResult | null };

/**
 * `/results`: the standalone diagnostic's result. Without a stored hf:diagId the
 * visitor goes to /survey; a failed load shows a browser alert and the empty state.
 */
export function ResultsPage() {
  const [diagnosticId] = useState(() => storedDiagnosticId());
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  useEffect(() => {
    if (!diagnosticId) return;
    let live = true;
    getResults(diagnosticId)
      .then(({ diagnostic }) => live && setLoad({ status: 'done', result: diagnostic ?? null }))
      .catch((error: unknown) => {
        if (!live) return;
        window.alert(error instanceof Error ? error.message : String(error));
        setLoad({ status: 'done', result: null });
      });
    return () => {
      live = false;
    };
  }, [diagnosticId]);

  if (!diagnosticId) return <Navigate to="/survey" replace />;
  const result = load.status === 'done' ? load.result : null;
  const empty = load.status === 'done' && (!result || !result.archetype);

  return (
    <>
      <title>Your Results | Leadership Coaching</title>
      <section
        aria-labelledby="results-title"
        className="min-h-screen bg-sand px-5 pt-28 pb-20 sm:px-8 sm:pt-36"
        aria-busy={load.status === 'loading'}
      >
        <div className="mx-auto flex max-w-4xl flex-col gap-8">
          <header className="flex flex-col gap-4">
            <Eyebrow>Leadership Diagnostic</Eyebrow>
            <h1 id="results-title" className="font-serif text-4xl text-balance text-ink sm:text-5xl">
              {result && !empty ? result.archetype : 'Your Results'}
            </h1>
            {result && !empty && <p className="text-sm font-medium tracking-wide text-muted uppercase">Your leadership archetype</p>}
          </header>

          {load.status === 'loading' && (
            <Card padding="lg">
              <p role="status" className="text-muted">
                Loading your results…
              </p>
            </Card>
          )}

          {empty && (
            <Card padding="lg" className="items-start gap-6">
              <p className="text-lg text-ink">No results found.</p>
              <ButtonLink to="/diagnostic">Retake Diagnostic</ButtonLink>
            </Card>
          )}

          {result && !empty && (
            <>
              {result.fallback && (
                <p className="rounded-2xl border border-brass/60 bg-white/70 px-5 py-3 text-sm text-ink" role="note">
                  {FALLBACK_NOTE}
                </p>
              )}
              <Card padding="lg" className="gap-5">
                <h2 className="font-serif text-2xl text-ink">What your answers show</h2>
                <p className="text-lg leading-relaxed text-pretty text-ink/90 whitespace-pre-line">{result.narrative}</p>
              </Card>

              {result.reasoning && (
                <Card padding="lg" className="gap-4">
                  <h2 className="font-serif text-2xl text-ink">Assessment Breakdown</h2>
                  <p className="leading-relaxed text-muted whitespace-pre-line">{result.reasoning}</p>
                </Card>
              )}

              <Card padding="lg" className="gap-6">
                <h2 className="font-serif text-2xl text-ink">Your six dimensions</h2>
                <ScoreChart scores={result.scores} />
              </Card>

              <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
                <a href={reportUrl(result.id)} target="_blank" rel="noopener noreferrer" className={buttonClasses({ size: 'lg' })}>
                  Download Report
                  <span className="sr-only"> (PDF, opens in a new tab)</span>
                </a>
                <ButtonLink to="/mirror" variant="secondary" size="lg">
                  Try Mirror
                </ButtonLink>
                <ButtonLink to="/diagnostic" variant="ghost" size="lg">
                  Retake Diagnostic
                </ButtonLink>
              </div>
            </>
          )}
        </div>
      </section>
    </>
  );
}
