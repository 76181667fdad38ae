import { Button } from '#web/components/ui/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { timedSummary } from '#machines/content/timed-summary.js';
import { ScreenHeading } from '../screen-heading.js';

/**
 * 'Timed Questions Ahead': names the real timed questions and their real total time, both read
 * from the screens the server gave this diagnostic (content's timedSummary), never from a
 * constant that could drift from the bank.
 */
export function TimedInterstitial({ screens, onStart }: { screens: Screen[]; onStart: () => void }) {
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
