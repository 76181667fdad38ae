import type { Screen } from '#machines/content/diagnostic-bank.js';
import { Countdown } from '#web/components/countdown.js';
import { TIME_UP_MESSAGE } from '#web/lib/screen-clock.js';
import { OptionButton, useNumberKeys } from '../../ui.js';
import { ScreenHeading } from '../screen-heading.js';

/** A vignette's options (number keys pick them), with its countdown while it is timed. */
export function VignetteChoice({
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
