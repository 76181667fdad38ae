// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diagnosticScreens, type Screen } from '#machines/content/index.js';
import { browserDiagnostic } from '#web/lib/flows/browser-machines.js';
import { ScreenBody } from './diagnostic-screens/screen-body.js';
import { RankingList } from './ranking.js';

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

const rankingScreen = diagnosticScreens.find((s): s is Extract<Screen, { type: 'ranking' }> => s.type === 'ranking')!;
const { ranking } = rankingScreen;
const labels = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the priority ranking', () => {
  it('lists the priorities in the order the machine placed them and confirms that order', async () => {
    const user = userEvent.setup();
    const actor = createActor(browserDiagnostic, { input: { screens: [rankingScreen] } }).start();
    const { context } = actor.getSnapshot();
    expect(context.ranking).toEqual(rankingScreen.choiceIds);
    const send = vi.fn(() => true);
    render(<ScreenBody state="ranking" screen={rankingScreen} ranking={context.ranking} clockKey="flow-1:0" send={send} />);

    expect(screen.getByRole('heading', { name: ranking.prompt })).toBeTruthy();
    expect(labels(screen.getByRole('list'))).toEqual(ranking.items.map((item, index) => `Priority ${index + 1}:${item.label}`));
    await user.click(screen.getByRole('button', { name: 'Confirm Ranking' }));
    expect(send).toHaveBeenCalledExactlyOnceWith({ type: 'CONFIRM_RANKING', responseTime: expect.any(Number) });
  });

  it('shows a new order and keeps Confirm disabled until every item is placed', () => {
    const onConfirm = vi.fn();
    const reversed = [...rankingScreen.choiceIds].reverse();
    const { rerender } = render(<RankingList ranking={ranking} order={reversed} onReorder={vi.fn()} onConfirm={onConfirm} />);
    expect(labels(screen.getByRole('list'))[0]).toBe(`Priority 1:${ranking.items.at(-1)!.label}`);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm Ranking' }).disabled).toBe(false);

    rerender(<RankingList ranking={ranking} order={reversed.slice(1)} onReorder={vi.fn()} onConfirm={onConfirm} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm Ranking' }).disabled).toBe(true);
  });

  it('tells keyboard users how to move an item', () => {
    render(<RankingList ranking={ranking} order={rankingScreen.choiceIds} onReorder={vi.fn()} onConfirm={vi.fn()} />);
    const list = screen.getByRole('list');
    const instructions = document.getElementById(list.getAttribute('aria-describedby')!);
    expect(instructions?.textContent).toContain('press Space to pick it up');
    expect(within(list).getAllByRole('button')[0]!.getAttribute('aria-roledescription')).toBe('sortable');
  });
});
