import { useState } from 'react';
import type { Screen } from '#machines/content/diagnostic-bank.js';
import { forgetScreen, useCountdown, useScreenClock } from '#web/lib/screen-clock.js';
import { ScaleButtons } from '../../ui.js';
import { RankingList } from '../ranking.js';
import { ScreenHeading } from '../screen-heading.js';
import type { DiagnosticSend } from './types.js';
import { VignetteChoice } from './vignette-choice.js';

/** The likert scale's words, 1 to 5. */
const LIKERT_LABELS = ['Strongly disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly agree'] as const;

/**
 * The question of one screen (likert, ranking, vignette and its confidence follow-up), sending the
 * diagnostic's events with the time the screen has been shown; an answered screen's clock is forgotten.
 */
export function ScreenBody({
  state,
  screen,
  ranking,
  clockKey,
  send,
}: {
  state: string;
  screen: Screen;
  ranking: string[];
  clockKey: string;
  send: DiagnosticSend;
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
              if (send({ type: 'ANSWER_LIKERT', value, responseTime: clock.elapsedMs() })) answered();
            }}
          />
        </div>
      );
    case 'ranking':
      return (
        <RankingList
          ranking={screen.ranking}
          order={ranking}
          onReorder={(order) => send({ type: 'REORDER_RANKING', order })}
          onConfirm={() => {
            if (send({ type: 'CONFIRM_RANKING', responseTime: clock.elapsedMs() })) answered();
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
              if (send({ type: 'SELECT_CONFIDENCE', value })) answered();
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
            if (send({ type: 'SELECT_OPTION', optionId, responseTime: clock.elapsedMs() }) && !withFollowup) answered();
          }}
        />
      );
  }
}
