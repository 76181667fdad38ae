import { Button } from '#web/components/ui/index.js';
import { diagnosticScreens, timedQuestions } from '#machines/content/index.js';
import { StepEyebrow } from '../ui.js';

/*
 * The product's intro says "timed scenarios 1 minute", but the real timed block is the four
 * vignettes with 50 + 45 + 40 + 45 = 180 seconds between them (machines/content/banks/v2.ts
 * explains the counts). What the visitor reads must be true, so the timed part's time and
 * question count come from content's timedQuestions, and the other parts keep the spec's
 * estimates: 8-12 minutes overall, diagnostic 5-7 minutes, survey 2-3 minutes. Most visitors
 * answer the scenarios well inside their limits, so the overall estimate still holds.
 */
const untimedCount = diagnosticScreens.length - (timedQuestions?.numbers.length ?? 0);
const timedMinutes = timedQuestions ? Math.round(timedQuestions.totalSeconds / 60) : 0;

const PARTS = [
  {
    label: 'Leadership diagnostic',
    time: '5-7 minutes',
    detail: `${untimedCount} questions: quick statements about how you lead today and one priority ranking.`,
  },
  ...(timedQuestions
    ? [
        {
          label: 'Timed scenarios',
          time: `up to ${timedMinutes} minutes`,
          detail: `${timedQuestions.numbers.length} real-world decisions, each with its own countdown (${timedQuestions.totalSeconds} seconds in total). Go with your first instinct.`,
        },
      ]
    : []),
  {
    label: 'Qualification survey',
    time: '2-3 minutes',
    detail: 'Seven short questions about where you are and what you want from coaching.',
  },
];

/** intro ('Assessment Overview'): the 8-12 minute overview with its parts. */
export function IntroStep({ onStart, starting }: { onStart: () => void; starting: boolean }) {
  return (
    <div className="flex flex-col gap-7">
      <div className="flex flex-col gap-3">
        <StepEyebrow>8-12 minutes in all</StepEyebrow>
        <p className="text-lg leading-relaxed text-ink">
          Answer for how you actually lead on an ordinary week, not how you would like to. There are no right answers, only an honest
          picture to work from.
        </p>
      </div>
      <ol className="flex flex-col gap-3">
        {PARTS.map((part, index) => (
          <li key={part.label} className="flex gap-4 rounded-2xl border border-line bg-white p-4 sm:p-5">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-sand font-serif text-lg text-brass-deep">
              {index + 1}
            </span>
            <div className="flex flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4">
                <p className="font-semibold text-ink">{part.label}</p>
                <p className="text-sm font-medium text-brass-deep">{part.time}</p>
              </div>
              <p className="text-sm leading-relaxed text-muted">{part.detail}</p>
            </div>
          </li>
        ))}
      </ol>
      <p className="text-sm leading-relaxed text-muted">
        Your answers are saved as you go: if you close this window you can pick up where you left off.
      </p>
      <div>
        <Button size="lg" onClick={onStart} loading={starting} loadingText="Starting...">
          Begin the Diagnostic
        </Button>
      </div>
    </div>
  );
}
