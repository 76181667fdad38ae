import { describe, expect, it } from 'vitest';
import { completedPathOf } from './snapshots.js';

describe('completedPathOf', () => {
  it('reads the deposit path as version 2 writes it, and as version 1 did (booked: boolean) for a flow not yet moved up', () => {
    const stored = (completedPath: unknown) => ({ value: 'completed_results', context: { completedPath } });
    expect(completedPathOf(stored({ kind: 'deposit_paid', booking: 'booked' }))).toEqual({ kind: 'deposit_paid', booking: 'booked' });
    expect(completedPathOf(stored({ kind: 'deposit_paid', booked: true }))).toEqual({ kind: 'deposit_paid', booking: 'opened' });
    expect(completedPathOf(stored({ kind: 'deposit_paid', booked: false }))).toEqual({ kind: 'deposit_paid', booking: 'none' });
    expect(completedPathOf(stored({ kind: 'community_joined' }))).toEqual({ kind: 'community_joined' });
    expect(completedPathOf(stored({ kind: 'deposit_paid', booking: 'maybe' }))).toBeNull();
    expect(completedPathOf(stored(null))).toBeNull();
  });
});
