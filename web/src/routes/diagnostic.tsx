import { useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Eyebrow, ProgressBar } from '../components/ui';
import { diagnosticScreens } from '../../../machines/content/index';
import type { Screen } from '../../../machines/content/schemas';
import { completeDiagnostic, sendAnswer, startDiagnostic, type StandaloneAnswer } from '../features/standalone/api';
import { clearStoredDiagnostic, storeDiagnosticId } from '../features/standalone/storage';

const LIKERT = [1, 2, 3, 4, 5] as const;

const choiceClasses =
  'flex min-h-12 w-full items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 text-left text-[0.95rem] leading-snug text-ink transition-colors hover:border-ink/50 hover:bg-paper disabled:cursor-not-allowed disabled:opacity-60';

/**
 * `/diagnostic`: the standalone diagnostic (spec sections 2 and 4). On open the old stored
 * diagnostic is forgotten and a new one started (hf:diagId); each answer is sent and the next item
 * shown; after the last one the diagnostic is completed and the visitor goes to /survey.
 */
export function DiagnosticPage() {
  const navigate = useNavigate();
  const [diagnosticId, setDiagnosticId] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const [choice, setChoice] = useState<string | null>(null);
  const shownAt = useRef(Date.now());
  const started = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const total = diagnosticScreens.length;
  const screen = diagnosticScreens[index];

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    clearStoredDiagnostic();
    startDiagnostic()
      .then(({ diagnosticId: id }) => {
        storeDiagnosticId(id);
        setDiagnosticId(id);
        shownAt.current = Date.now();
      })
      .catch((error: unknown) => window.alert(error instanceof Error ? error.message : String(error)));
  }, []);

  const answer = async (value: StandaloneAnswer['value'], confidence?: number) => {
    if (!diagnosticId || !screen || busy) return;
    setBusy(true);
    const recorded: StandaloneAnswer = { id: screen.id, type: screen.type, value, ms: Math.max(0, Math.round(Date.now() - shownAt.current)) };
    if (confidence !== undefined) recorded.confidence = confidence;
    try {
      await sendAnswer(diagnosticId, recorded);
    } catch (error) {
      // an answer failure is not handled (spec section 8): the diagnostic moves on
      console.warn('diagnostic answer failed', error);
    }
    if (index + 1 >= total) {
      try {
        await completeDiagnostic(diagnosticId);
      } catch (error) {
        window.alert(error instanceof Error ? error.message : String(error));
        setBusy(false);
        return;
      }
      navigate('/survey');
      return;
    }
    setChoice(null);
    setIndex(index + 1);
    setBusy(false);
    shownAt.current = Date.now();
  };

  // each new item (and a vignette's follow-up) moves focus to its question, for keyboard and screen-reader users
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    heading.current?.focus();
  }, [index, choice]);

  return (
    <>
      <title>Leadership Diagnostic | Leadership Coaching</title>
      <section aria-labelledby="diagnostic-title" className="min-h-screen bg-sand px-5 pt-28 pb-20 sm:px-8 sm:pt-36">
        <div className="mx-auto flex max-w-2xl flex-col gap-8">
          <header className="flex flex-col gap-5">
            <Eyebrow>Free assessment</Eyebrow>
            <h1 id="diagnostic-title" className="font-serif text-4xl text-balance text-ink sm:text-5xl">
              Leadership Diagnostic
            </h1>
            <ProgressBar
              value={diagnosticId ? index + 1 : 0}
              max={total}
              label="Diagnostic progress"
              valueText={`Item ${index + 1} / ${total}`}
              showLabel
            />
          </header>
          <Card padding="lg" aria-busy={!diagnosticId || busy}>
            {!diagnosticId || !screen ? (
              <p className="text-muted" role="status">
                Preparing your diagnostic…
              </p>
            ) : (
              <ItemView key={screen.id} screen={screen} headingRef={heading} busy={busy} choice={choice} onChoose={setChoice} onAnswer={answer} />
            )}
          </Card>
        </div>
      </section>
    </>
  );
}

function ItemView({
  screen,
  headingRef,
  busy,
  choice,
  onChoose,
  onAnswer,
}: {
  screen: Screen;
  headingRef: RefObject<HTMLHeadingElement | null>;
  busy: boolean;
  choice: string | null;
  onChoose: (id: string) => void;
  onAnswer: (value: StandaloneAnswer['value'], confidence?: number) => void;
}) {
  const prompt = (text: string) => (
    <h2 ref={headingRef} tabIndex={-1} className="font-serif text-2xl leading-snug text-balance text-ink sm:text-[1.7rem] focus:outline-none">
      {text}
    </h2>
  );

  if (screen.type === 'likert') {
    return (
      <div className="flex flex-col gap-7">
        {prompt(screen.item.prompt)}
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">How much do you agree? 1 is strongly disagree, 5 is strongly agree.</legend>
          <div className="grid grid-cols-5 gap-2 sm:gap-3">
            {LIKERT.map((value) => (
              <button
                key={value}
                type="button"
                disabled={busy}
                onClick={() => onAnswer(value)}
                aria-label={`${value}${value === 1 ? ' (strongly disagree)' : value === 5 ? ' (strongly agree)' : ''}`}
                className="flex aspect-square max-h-16 items-center justify-center rounded-2xl border border-line bg-white text-lg font-semibold text-ink tabular-nums transition-colors hover:border-ink hover:bg-ink hover:text-white disabled:cursor-not-allowed disabled:opacity-60 sm:max-h-none"
              >
                {value}
              </button>
            ))}
          </div>
          <div className="flex justify-between text-xs font-medium tracking-wide text-muted uppercase" aria-hidden="true">
            <span>Strongly disagree</span>
            <span>Strongly agree</span>
          </div>
        </fieldset>
      </div>
    );
  }

  if (screen.type === 'ranking') {
    const { ranking } = screen;
    return (
      <div className="flex flex-col gap-7">
        {prompt(ranking.prompt)}
        <ol className="flex flex-col gap-2.5" aria-label="Your priorities, most important first">
          {ranking.items.map((item, position) => (
            <li key={item.id} className="flex items-center gap-4 rounded-2xl border border-line bg-paper px-4 py-3 text-ink">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-semibold text-white tabular-nums" aria-hidden="true">
                {position + 1}
              </span>
              <span className="leading-snug">{item.label}</span>
            </li>
          ))}
        </ol>
        <div>
          <Button size="lg" disabled={busy} onClick={() => onAnswer(screen.choiceIds)}>
            Submit Ranking
          </Button>
        </div>
      </div>
    );
  }

  const { vignette } = screen;
  if (choice && vignette.followup) {
    const followup = vignette.followup;
    return (
      <div className="flex flex-col gap-7">
        {prompt(followup.prompt)}
        <fieldset className="flex flex-col gap-2.5">
          <legend className="sr-only">Confidence, from 1 (lowest) to 5 (highest)</legend>
          {followup.scale.map((label, i) => (
            <button key={label} type="button" disabled={busy} onClick={() => onAnswer(choice, i + 1)} className={choiceClasses}>
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full border border-ink/20 text-sm font-semibold tabular-nums" aria-hidden="true">
                {i + 1}
              </span>
              <span>
                <span className="sr-only">{i + 1}: </span>
                {label}
              </span>
            </button>
          ))}
        </fieldset>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-7">
      {prompt(vignette.prompt)}
      <div className="flex flex-col gap-2.5" role="group" aria-label="Your choice">
        {vignette.options.map((option) => (
          <button
            key={option.id}
            type="button"
            disabled={busy}
            onClick={() => (vignette.followup ? onChoose(option.id) : onAnswer(option.id))}
            className={choiceClasses}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
