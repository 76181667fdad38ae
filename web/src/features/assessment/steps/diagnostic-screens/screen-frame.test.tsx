// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, type Actor } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diagnosticScreens, type Screen } from '#machines/content/index.js';
import { diagnosticProgress } from '#machines/diagnostic/diagnostic.screens.js';
import { statePath } from '#machines/protocol/can-accept.js';
import { useFlowSnapshot } from '#web/lib/flows/use-server-flow.js';
import { browserDiagnostic } from '#web/lib/flows/browser-machines.js';
import { TIME_UP_MESSAGE } from '#web/lib/screen-clock.js';
import { ScreenFrame } from './screen-frame.js';
import type { DiagnosticSend } from './types.js';

type DiagnosticActor = Actor<typeof browserDiagnostic>;

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The real diagnostic machine over `screens`, and a send that records each event and applies it, as the flow does locally. */
function diagnosticOver(screens: Screen[]) {
  const actor = createActor(browserDiagnostic, { input: { screens } }).start();
  const send = vi.fn<DiagnosticSend>((event) => {
    const before = actor.getSnapshot();
    actor.send(event);
    return actor.getSnapshot() !== before;
  });
  return { actor, send };
}

/** What DiagnosticScreens renders for the actor's snapshot. */
function Diagnostic({ actor, send }: { actor: DiagnosticActor; send: DiagnosticSend }) {
  const snapshot = useFlowSnapshot(actor);
  const { context } = snapshot;
  const screen = context.screens[context.index];
  const { current, total } = diagnosticProgress(context);
  if (!screen) return <p>done</p>;
  return (
    <ScreenFrame
      flowId="flow-1"
      send={send}
      state={statePath(snapshot.value)}
      screen={screen}
      context={context}
      current={current}
      total={total}
    />
  );
}

const likerts = diagnosticScreens.filter((s) => s.type === 'likert');
const vignettes = diagnosticScreens.filter((s): s is Extract<Screen, { type: 'vignette' }> => s.type === 'vignette');

describe('the diagnostic screen', () => {
  it('shows a likert question with its progress and sends the chosen answer', async () => {
    const user = userEvent.setup();
    const { actor, send } = diagnosticOver(likerts.slice(0, 2));
    render(<Diagnostic actor={actor} send={send} />);

    expect(screen.getByRole('progressbar', { name: 'Diagnostic progress' }).getAttribute('aria-valuetext')).toBe('1 of 2');
    expect(screen.getByRole('heading', { name: likerts[0]!.item.prompt })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Agree$/ }));

    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'ANSWER_LIKERT', value: 4, responseTime: expect.any(Number) });
    expect(screen.getByRole('heading', { name: likerts[1]!.item.prompt })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('2 of 2');
    expect(actor.getSnapshot().context.answers[likerts[0]!.id]).toMatchObject({ type: 'likert', value: 4 });
  });

  it('announces the timed questions, then counts a vignette down to zero and locks its options', () => {
    vi.useFakeTimers();
    const vignette = vignettes[0]!;
    const { actor, send } = diagnosticOver([vignette]);
    render(<Diagnostic actor={actor} send={send} />);

    expect(screen.getByRole('heading', { name: 'Timed Questions Ahead' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Start Timed Questions' }));
    expect(send).toHaveBeenLastCalledWith({ type: 'START_TIMED' });

    const limit = vignette.timeLimitSec;
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe(`${limit} seconds left`);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe(`${limit - 10} seconds left`);
    expect(screen.queryByText(TIME_UP_MESSAGE)).toBeNull();

    act(() => {
      vi.advanceTimersByTime((limit - 10) * 1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('0:00');
    expect(screen.getAllByText(TIME_UP_MESSAGE).length).toBeGreaterThan(0);
    const options = screen.getByRole('group', { name: 'Your choice' }).querySelectorAll('button');
    expect(options).toHaveLength(vignette.vignette.options.length);
    for (const option of options) expect(option.disabled).toBe(true);
    // the server records the default answer: this tab sends nothing more
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends a vignette choice with its time, then asks for confidence', () => {
    vi.useFakeTimers();
    const vignette = vignettes[0]!;
    const { actor, send } = diagnosticOver([vignette]);
    actor.send({ type: 'START_TIMED' });
    render(<Diagnostic actor={actor} send={send} />);

    act(() => {
      vi.advanceTimersByTime(3000);
    });
    const first = vignette.vignette.options[0]!;
    fireEvent.click(screen.getByRole('button', { name: `A${first.label}` }));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'SELECT_OPTION', optionId: first.id, responseTime: 3000 });

    const followup = vignette.vignette.followup!;
    expect(screen.getByRole('heading', { name: followup.prompt })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: new RegExp(`^5${followup.scale[4]!}`) }));
    expect(send).toHaveBeenLastCalledWith({ type: 'SELECT_CONFIDENCE', value: 5 });
  });
});
