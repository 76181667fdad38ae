import { useEffect, useMemo, useRef, useState } from 'react';
import type { Actor } from 'xstate';
import { Button, ProgressBar, cx } from '#web/components/ui/index.js';
import { diagnosticBank } from '#machines/content/index.js';
import { timedSummary, type Screen } from '#machines/content/schemas.js';
import { diagnosticProgress, type diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import type { DiagnosticAnswers } from '#machines/protocol/common.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { FlowIdStore } from '#web/lib/flows/storage.js';
import { useFlowSnapshot, useServerFlow, type ServerFlowHandle } from '#web/lib/flows/use-server-flow.js';
import { browserDiagnostic } from '../machines.js';
import { countdownAnnouncement, forgetScreen, TIME_UP_MESSAGE, useCountdown, useScreenClock } from '../screen-clock.js';
import { NoticeBox, OptionButton, ScaleButtons, StepEyebrow, useNumberKeys, Waiting } from '../ui.js';
import { RankingList } from './ranking.js';
import { ScreenHeading } from './screen-heading.js';

/** The likert scale's words, 1 to 5. */
const LIKERT_LABELS = ['Strongly disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly agree'] as const;

type DiagnosticFlow = ServerFlowHandle<typeof browserDiagnostic>;

/** The block a screen belongs to (label and instructions), read from the bundled bank. */
function blockOf(screen: Screen): { label: string; instructions: string } | null {
  const blocks = [diagnosticBank.baseline, diagnosticBank.advanced_traits, diagnosticBank.vignettes];
  const block = blocks.find((b) => b?.id === screen.blockId);
  return block ? { label: block.label, instructions: block.instructions } : null;
}

/**
 * The diagnostic step of the modal: its own server flow (machine 'diagnostic', whose answers the
 * server times), one per visit of the assessment flow's `diagnostic` state, so a reload or a
 * second tab resumes the same flow at the same question. When the server says it is done, the
 * answers are handed to the assessment flow (DIAGNOSTIC_COMPLETED with this flow's id).
 */
export function DiagnosticStep({
  parentFlowId,
  parentVersion,
  onCompleted,
}: {
  parentFlowId: string;
  parentVersion: number;
  onCompleted: (answers: DiagnosticAnswers, diagnosticFlowId: string) => void;
}) {
  const slot = `child:${parentFlowId}:diagnostic:${parentVersion}`;
  const ids = useMemo(() => new FlowIdStore(), []);
  const flow = useServerFlow('diagnostic', browserDiagnostic, {
    flowId: ids.get(slot),
    start: { machine: 'diagnostic' },
    onFlowId: (id) => ids.set(slot, id),
    sessionKey: slot,
  });
  if (flow.status === 'error') {
    return (
      <div className="flex flex-col items-start gap-4">
        <NoticeBox notice={{ title: 'Error', description: 'Failed to start assessment. Please try again.' }} />
        <Button onClick={flow.retry}>Try Again</Button>
      </div>
    );
  }
  if (!flow.actor) return <Waiting title="Preparing your diagnostic" />;
  return <DiagnosticScreens flow={flow} actor={flow.actor} onCompleted={onCompleted} />;
}

function DiagnosticScreens({
  flow,
  actor,
  onCompleted,
}: {
  flow: DiagnosticFlow;
  actor: Actor<typeof diagnosticMachine>;
  onCompleted: (answers: DiagnosticAnswers, diagnosticFlowId: string) => void;
}) {
  const snapshot = useFlowSnapshot(actor);
  const { context } = snapshot;
  const state = statePath(snapshot.value);
  const flowId = flow.flowId!;
  const { current, total } = diagnosticProgress(context);
  const screen = context.screens[context.index];

  // hand over once the server has recorded the last answer (not merely this tab)
  const handed = useRef(false);
  useEffect(() => {
    if (handed.current || flow.serverState !== 'done' || flow.pending !== 0 || state !== 'done') return;
    handed.current = true;
    onCompleted(context.answers, flowId);
  }, [flow.serverState, flow.pending, state, context.answers, flowId, onCompleted]);

  if (state === 'done' || !screen) return <Waiting title="Saving your answers" />;
  return <ScreenFrame flow={flow} state={state} screen={screen} context={context} current={current} total={total} />;
}

/**
 * One screen with the progress bar. A new screen scrolls the dialog back to the top and moves
 * focus to its question, so the progress and the question are seen (and heard) first.
 */
function ScreenFrame({
  flow,
  state,
  screen,
  context,
  current,
  total,
}: {
  flow: DiagnosticFlow;
  state: string;
  screen: Screen;
  context: { index: number; screens: Screen[]; ranking: string[] };
  current: number;
  total: number;
}) {
  const flowId = flow.flowId!;
  const root = useRef<HTMLDivElement>(null);
  const screenKey = state === 'interstitial' ? 'interstitial' : `${context.index}:${state}`;
  const firstScreen = useRef(true);
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    root.current?.closest('[data-step]')?.scrollTo({ top: 0 });
    root.current?.querySelector<HTMLElement>('[data-screen-heading]')?.focus({ preventScroll: true });
  }, [screenKey]);
  const block = blockOf(screen);
  const clockKey = `${flowId}:${state === 'interstitial' ? 'interstitial' : context.index}`;
  const isFirstOfBlock = context.index === 0 || context.screens[context.index - 1]?.blockId !== screen.blockId;

  return (
    <div ref={root} className="flex flex-col gap-7" data-diagnostic-screen={screenKey}>
      <ProgressBar
        value={state === 'interstitial' ? current - 1 : current}
        max={total}
        label="Diagnostic progress"
        valueText={`${current} of ${total}`}
        showLabel
        tone="brass"
      />
      {state === 'interstitial' ? (
        <TimedInterstitial screens={context.screens} onStart={() => flow.send({ type: 'START_TIMED' })} />
      ) : (
        <div key={clockKey} className="flex flex-col gap-6">
          {block && (
            <div className="flex flex-col gap-1">
              <StepEyebrow>{block.label}</StepEyebrow>
              {isFirstOfBlock && <p className="text-sm leading-relaxed text-muted">{block.instructions}</p>}
            </div>
          )}
          <ScreenBody state={state} screen={screen} ranking={context.ranking} clockKey={clockKey} flow={flow} />
        </div>
      )}
    </div>
  );
}

function ScreenBody({
  state,
  screen,
  ranking,
  clockKey,
  flow,
}: {
  state: string;
  screen: Screen;
  ranking: string[];
  clockKey: string;
  flow: DiagnosticFlow;
}) {
  const clock = useScreenClock(clockKey);
  const answered = () => forgetScreen(clockKey);
  const timed = screen.type === 'vignette' && state === 'vignette.choosing' ? screen.timeLimitSec : null;
  // the clock ran out: the server's machine records the auto-answer, and its push shows the next screen
  const [timeUp, setTimeUp] = useState(false);
  const left = useCountdown(clock.shownAt, timed, timed !== null, () => setTimeUp(true));

  switch (screen.type) {
    case 'likert':
      return (
        <div className="flex flex-col gap-6">
          <ScreenHeading className="text-2xl text-balance sm:text-[1.7rem]">{screen.item.prompt}</ScreenHeading>
          <ScaleButtons
            legend="How true is this of you?"
            labels={LIKERT_LABELS}
            onPick={(value) => {
              if (flow.send({ type: 'ANSWER_LIKERT', value, responseTime: clock.elapsedMs() })) answered();
            }}
          />
        </div>
      );
    case 'ranking':
      return (
        <RankingList
          ranking={screen.ranking}
          order={ranking}
          onReorder={(order) => flow.send({ type: 'REORDER_RANKING', order })}
          onConfirm={() => {
            if (flow.send({ type: 'CONFIRM_RANKING', responseTime: clock.elapsedMs() })) answered();
          }}
        />
      );
    case 'vignette':
      return state === 'vignette.confidence' && screen.vignette.followup ? (
        <div className="flex flex-col gap-6">
          <ScreenHeading className="text-2xl">{screen.vignette.followup.prompt}</ScreenHeading>
          <ScaleButtons
            legend={screen.vignette.followup.prompt}
            labels={screen.vignette.followup.scale}
            onPick={(value) => {
              if (flow.send({ type: 'SELECT_CONFIDENCE', value })) answered();
            }}
          />
        </div>
      ) : (
        <VignetteChoice
          screen={screen}
          left={left}
          timeUp={timeUp}
          onChoose={(optionId) => {
            const withFollowup = screen.hasFollowup;
            if (flow.send({ type: 'SELECT_OPTION', optionId, responseTime: clock.elapsedMs() }) && !withFollowup) answered();
          }}
        />
      );
  }
}

function VignetteChoice({
  screen,
  left,
  timeUp,
  onChoose,
}: {
  screen: Extract<Screen, { type: 'vignette' }>;
  left: number | null;
  timeUp: boolean;
  onChoose: (optionId: string) => void;
}) {
  const options = screen.vignette.options;
  useNumberKeys(options.length, !timeUp, (value) => {
    const option = options[value - 1];
    if (option) onChoose(option.id);
  });
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col-reverse gap-4 sm:flex-row sm:items-start sm:justify-between">
        <ScreenHeading className="text-xl sm:text-2xl">{screen.vignette.prompt}</ScreenHeading>
        {left !== null && <Countdown left={left} limit={screen.timeLimitSec} />}
      </div>
      {timeUp && (
        <p className="rounded-2xl border border-line bg-sand px-4 py-3 text-sm text-ink" data-time-up>
          {TIME_UP_MESSAGE}
        </p>
      )}
      <div className="flex flex-col gap-3" role="group" aria-label="Your choice">
        {options.map((option, index) => (
          <OptionButton key={option.id} index={index} disabled={timeUp} onClick={() => onChoose(option.id)}>
            {option.label}
          </OptionButton>
        ))}
      </div>
    </div>
  );
}

/** The visible countdown (role=timer) and, separately, a live region that speaks only at a few moments. */
export function Countdown({ left, limit }: { left: number; limit: number }) {
  // A live region speaks when its text changes, so the words go in only at the moments worth
  // saying, and stay until the next one.
  const liveRegion = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const words = countdownAnnouncement(left, limit);
    if (words && liveRegion.current) liveRegion.current.textContent = words;
  }, [left, limit]);
  const low = left <= 10;
  const radius = 20;
  const circumference = 2 * Math.PI * radius;
  return (
    <div className="flex shrink-0 items-center gap-3 self-start rounded-full border border-line bg-white py-1.5 pr-4 pl-1.5 shadow-soft">
      <svg viewBox="0 0 48 48" className="size-11 -rotate-90" aria-hidden="true">
        <circle cx="24" cy="24" r={radius} fill="none" stroke="currentColor" strokeWidth="4" className="text-ink/10" />
        <circle
          cx="24"
          cy="24"
          r={radius}
          fill="none"
          stroke="currentColor"
          strokeWidth="4"
          strokeLinecap="round"
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - left / limit)}
          className={cx('transition-[stroke-dashoffset] duration-300 ease-linear', low ? 'text-danger' : 'text-brass')}
        />
      </svg>
      <div className="flex flex-col leading-tight">
        <span
          role="timer"
          aria-label={`${left} seconds left`}
          className={cx('text-xl font-semibold tabular-nums', low ? 'text-danger' : 'text-ink')}
        >
          0:{String(left).padStart(2, '0')}
        </span>
        <span className="text-xs text-muted">time left</span>
      </div>
      <span ref={liveRegion} className="sr-only" aria-live="polite" aria-atomic="true" />
    </div>
  );
}

/**
 * 'Timed Questions Ahead': names the real timed questions and their real total time, both read
 * from the screens the server gave this diagnostic (content's timedSummary), never from a
 * constant that could drift from the bank.
 */
function TimedInterstitial({ screens, onStart }: { screens: Screen[]; onStart: () => void }) {
  const summary = timedSummary(screens);
  const timed = screens.filter((s): s is Extract<Screen, { type: 'vignette' }> => s.type === 'vignette');
  const minutes = summary ? Math.round((summary.totalSeconds / 60) * 10) / 10 : 0;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex items-center gap-4">
        <span className="flex size-14 shrink-0 items-center justify-center rounded-full bg-ink text-brass" aria-hidden="true">
          <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="13" r="8" />
            <path d="M12 9v4l2.5 2.5M9.5 2.5h5" />
          </svg>
        </span>
        <ScreenHeading className="text-3xl">Timed Questions Ahead</ScreenHeading>
      </div>
      {summary && <p className="text-lg leading-relaxed text-ink">{summary.sentence}</p>}
      <ul className="grid gap-2 sm:grid-cols-2">
        {timed.map((screen) => (
          <li key={screen.id} className="flex items-center justify-between rounded-2xl border border-line bg-white px-4 py-3">
            <span className="font-medium text-ink">Question {screen.number}</span>
            <span className="text-sm text-muted tabular-nums">{screen.timeLimitSec} seconds</span>
          </li>
        ))}
      </ul>
      <p className="text-base leading-relaxed text-muted">
        Each scenario shows its own countdown, about {minutes} minutes at most for all {timed.length}. Go with your first instinct: if the
        time runs out, the first option is recorded for you. After each choice you will be asked how confident you are, without a clock.
      </p>
      <div>
        <Button size="lg" onClick={onStart}>
          Start Timed Questions
        </Button>
      </div>
    </div>
  );
}
