import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Actor } from 'xstate';
import { Button, Card, Eyebrow, ProgressBar } from '../components/ui/index.js';
import { timedSummary, type Screen } from '#machines/content/schemas.js';
import { diagnosticProgress, type diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { browserDiagnostic } from '../features/assessment/machines.js';
import { TIME_UP_MESSAGE, forgetScreen, useCountdown, useScreenClock } from '../features/assessment/screen-clock.js';
import { Countdown } from '../features/assessment/steps/diagnostic.js';
import { startDiagnostic } from '../features/standalone/api.js';
import { clearStoredDiagnostic, storeDiagnosticId } from '../features/standalone/storage.js';
import { useFlowSnapshot, useServerFlow, type ServerFlowHandle } from '../lib/flows/use-server-flow.js';

const LIKERT = [1, 2, 3, 4, 5] as const;

const choiceClasses =
  'flex min-h-12 w-full items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 text-left text-[0.95rem] leading-snug text-ink transition-colors hover:border-ink/50 hover:bg-paper disabled:cursor-not-allowed disabled:opacity-60';

type DiagnosticFlow = ServerFlowHandle<typeof browserDiagnostic>;

/** The product's answer to a failed start: a browser alert with the error message. */
function alertError(error: unknown): void {
  window.alert(error instanceof Error ? error.message : String(error));
}

/**
 * `/diagnostic`: the standalone diagnostic. On open the old stored
 * diagnostic is forgotten and a new one started (diagnostic-start, hf:diagId): a diagnostic flow
 * the server runs, as the modal's, with this page sending the machine's events. The server times
 * the answers and the timed items, and grades the last answer; once it has the last one the
 * visitor goes to /survey, where the assessment goes on from this diagnostic.
 */
export function DiagnosticPage() {
  const [diagnostic, setDiagnostic] = useState<{ diagnosticId: string; flowId: string } | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    clearStoredDiagnostic();
    startDiagnostic()
      .then(({ diagnosticId, flowId: id }) => {
        storeDiagnosticId(diagnosticId);
        setDiagnostic({ diagnosticId, flowId: id });
      })
      .catch(alertError);
  }, []);

  return (
    <>
      <title>Leadership Diagnostic | Leadership Coaching</title>
      {diagnostic ? <StandaloneDiagnostic {...diagnostic} /> : <Preparing />}
    </>
  );
}

function StandaloneDiagnostic({ flowId, diagnosticId }: { flowId: string; diagnosticId: string }) {
  const navigate = useNavigate();
  const flow = useServerFlow('diagnostic', browserDiagnostic, { flowId });
  useEffect(() => {
    if (flow.status === 'error' && flow.error) alertError(flow.error);
  }, [flow.status, flow.error]);
  // the server has every answer (it grades them now, or already has): on to the survey,
  // where the assessment opens on the qualification survey for this diagnostic
  const finished = flow.serverState === 'grading' || flow.serverState === 'graded';
  useEffect(() => {
    // nothing waits for the navigation: the router shows any failure itself
    if (finished && flow.pending === 0) void navigate('/survey', { state: { diagnosticId } });
  }, [finished, flow.pending, navigate, diagnosticId]);
  if (!flow.actor) return <Preparing />;
  return <Screens flow={flow} actor={flow.actor} />;
}

function Preparing() {
  return (
    <Frame progress={null} busy>
      <p className="text-muted" role="status">
        Preparing your diagnostic…
      </p>
    </Frame>
  );
}

/** The page around an item: title, progress 'Item N / total' and the item's card. */
function Frame({ progress, busy, children }: { progress: { current: number; total: number } | null; busy: boolean; children: ReactNode }) {
  return (
    <section aria-labelledby="diagnostic-title" className="min-h-screen bg-sand px-5 pt-28 pb-20 sm:px-8 sm:pt-36">
      <div className="mx-auto flex max-w-2xl flex-col gap-8">
        <header className="flex flex-col gap-5">
          <Eyebrow>Free assessment</Eyebrow>
          <h1 id="diagnostic-title" className="font-serif text-4xl text-balance text-ink sm:text-5xl">
            Leadership Diagnostic
          </h1>
          <ProgressBar
            value={progress?.current ?? 0}
            max={progress?.total ?? 1}
            label="Diagnostic progress"
            valueText={progress ? `Item ${progress.current} / ${progress.total}` : 'Starting'}
            showLabel
          />
        </header>
        <Card padding="lg" aria-busy={busy}>
          {children}
        </Card>
      </div>
    </section>
  );
}

function Screens({ flow, actor }: { flow: DiagnosticFlow; actor: Actor<typeof diagnosticMachine> }) {
  const snapshot = useFlowSnapshot(actor);
  const state = statePath(snapshot.value);
  const { context } = snapshot;
  const screen = context.screens[context.index];
  const screenKey = `${context.index}:${state}`;
  const heading = useRef<HTMLHeadingElement>(null);

  // each new item (and a vignette's follow-up) moves focus to its question, for keyboard and screen-reader users
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    heading.current?.focus();
  }, [screenKey]);

  // an answer waits for the server (which times it) before the next can be given
  const busy = flow.pending > 0;
  const prompt = (text: string) => (
    <h2 ref={heading} tabIndex={-1} className="font-serif text-2xl leading-snug text-balance text-ink sm:text-[1.7rem] focus:outline-none">
      {text}
    </h2>
  );
  let body: ReactNode;
  if (!screen || state === 'grading' || state === 'graded') {
    body = (
      <p className="text-muted" role="status">
        Saving your answers…
      </p>
    );
  } else if (state === 'interstitial') {
    body = <TimedAhead screens={context.screens} prompt={prompt} busy={busy} onStart={() => flow.send({ type: 'START_TIMED' })} />;
  } else {
    body = (
      <Item
        key={screenKey}
        flow={flow}
        state={state}
        screen={screen}
        clockKey={`${flow.flowId}:${context.index}`}
        busy={busy}
        prompt={prompt}
      />
    );
  }
  return (
    <Frame progress={diagnosticProgress(context)} busy={busy}>
      {body}
    </Frame>
  );
}

/** 'Timed Questions Ahead': the real timed items and their total time, from the flow's own screens. */
function TimedAhead({
  screens,
  prompt,
  busy,
  onStart,
}: {
  screens: Screen[];
  prompt: (text: string) => ReactNode;
  busy: boolean;
  onStart: () => void;
}) {
  const summary = timedSummary(screens);
  return (
    <div className="flex flex-col gap-6">
      {prompt('Timed Questions Ahead')}
      {summary && <p className="text-lg leading-relaxed text-ink">{summary.sentence}</p>}
      <p className="leading-relaxed text-muted">
        Each one shows its countdown. If the time runs out, the first option is recorded for you.
      </p>
      <div>
        <Button size="lg" disabled={busy} onClick={onStart}>
          Start Timed Questions
        </Button>
      </div>
    </div>
  );
}

function Item({
  flow,
  state,
  screen,
  clockKey,
  busy,
  prompt,
}: {
  flow: DiagnosticFlow;
  state: string;
  screen: Screen;
  clockKey: string;
  busy: boolean;
  prompt: (text: string) => ReactNode;
}) {
  const clock = useScreenClock(clockKey);
  // the item's clock is kept until it is answered (an option with a follow-up is not the whole answer yet)
  const send = (event: Parameters<DiagnosticFlow['send']>[0]) => {
    const leaves = !(event.type === 'SELECT_OPTION' && screen.type === 'vignette' && screen.hasFollowup);
    if (flow.send(event) && leaves) forgetScreen(clockKey);
  };
  const timed = screen.type === 'vignette' && state === 'vignette.choosing' ? screen.timeLimitSec : null;
  // display only: the server's machine records the default answer, and its push brings the next item
  const [timeUp, setTimeUp] = useState(false);
  const left = useCountdown(clock.shownAt, timed, timed !== null, () => setTimeUp(true));

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
                onClick={() => send({ type: 'ANSWER_LIKERT', value, responseTime: clock.elapsedMs() })}
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
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-semibold text-white tabular-nums"
                aria-hidden="true"
              >
                {position + 1}
              </span>
              <span className="leading-snug">{item.label}</span>
            </li>
          ))}
        </ol>
        <div>
          {/* the machine starts a ranking in the given order, which is what this page submits */}
          <Button size="lg" disabled={busy} onClick={() => send({ type: 'CONFIRM_RANKING', responseTime: clock.elapsedMs() })}>
            Submit Ranking
          </Button>
        </div>
      </div>
    );
  }

  const { vignette } = screen;
  if (state === 'vignette.confidence' && vignette.followup) {
    return (
      <div className="flex flex-col gap-7">
        {prompt(vignette.followup.prompt)}
        <fieldset className="flex flex-col gap-2.5">
          <legend className="sr-only">Confidence, from 1 (lowest) to 5 (highest)</legend>
          {vignette.followup.scale.map((label, i) => (
            <button
              key={label}
              type="button"
              disabled={busy}
              onClick={() => send({ type: 'SELECT_CONFIDENCE', value: i + 1 })}
              className={choiceClasses}
            >
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full border border-ink/20 text-sm font-semibold tabular-nums"
                aria-hidden="true"
              >
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
      <div className="flex flex-col-reverse gap-4 sm:flex-row sm:items-start sm:justify-between">
        {prompt(vignette.prompt)}
        {left !== null && <Countdown left={left} limit={screen.timeLimitSec} />}
      </div>
      {timeUp && (
        <p className="rounded-2xl border border-line bg-paper px-4 py-3 text-sm text-ink" data-time-up>
          {TIME_UP_MESSAGE}
        </p>
      )}
      <div className="flex flex-col gap-2.5" role="group" aria-label="Your choice">
        {vignette.options.map((option) => (
          <button
            key={option.id}
            type="button"
            disabled={busy || timeUp}
            onClick={() => send({ type: 'SELECT_OPTION', optionId: option.id, responseTime: clock.elapsedMs() })}
            className={choiceClasses}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
