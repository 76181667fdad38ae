import { useState, type ReactNode } from 'react';
import { Button } from '#web/components/ui/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { Countdown } from '#web/components/countdown.js';
import { TIME_UP_MESSAGE, forgetScreen, useCountdown, useScreenClock } from '#web/lib/screen-clock.js';
import type { DiagnosticFlow } from './types.js';

const LIKERT = [1, 2, 3, 4, 5] as const;

const choiceClasses =
  'flex min-h-12 w-full items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 text-left text-[0.95rem] leading-snug text-ink transition-colors hover:border-ink/50 hover:bg-paper disabled:cursor-not-allowed disabled:opacity-60';

/** One item of the standalone diagnostic (likert, ranking, vignette and its confidence follow-up), sent with its response time. */
export function Item({
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
