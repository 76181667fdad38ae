import type { ReactNode } from 'react';
import { Button } from '#web/components/ui/index.js';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { timedSummary } from '#machines/content/timed-summary.js';

/** 'Timed Questions Ahead': the real timed items and their total time, from the flow's own screens. */
export function TimedAhead({
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
