import { initialTransition, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { canAccept, statePath } from './can-accept.js';

const machine = setup({
  types: { events: {} as { type: 'GO' } | { type: 'PING' } | { type: 'GUARDED'; ok: boolean } },
  actions: { ping: () => {} },
}).createMachine({
  id: 'probe',
  initial: 'a',
  states: {
    a: {
      on: {
        GO: 'b',
        PING: { actions: 'ping' },
        GUARDED: { guard: ({ event }) => event.ok, target: 'b' },
      },
    },
    b: { initial: 'inner', states: { inner: {} } },
  },
});

describe('canAccept', () => {
  const [start] = initialTransition(machine);

  it('accepts an event that moves the machine', () => {
    expect(canAccept(machine, start, { type: 'GO' })).toBe(true);
  });

  it('accepts an event that only runs an effect', () => {
    expect(canAccept(machine, start, { type: 'PING' })).toBe(true);
  });

  it('refuses an event whose guard fails, and one the state does not handle', () => {
    expect(canAccept(machine, start, { type: 'GUARDED', ok: false })).toBe(false);
    expect(canAccept(machine, start, { type: 'GUARDED', ok: true })).toBe(true);
    const inB = machine.resolveState({ value: { b: 'inner' }, context: start.context });
    expect(canAccept(machine, inB, { type: 'GO' })).toBe(false);
  });
});

describe('statePath', () => {
  it('dots nested state values', () => {
    expect(statePath('intro')).toBe('intro');
    expect(statePath({ processing: 'revealing' })).toBe('processing.revealing');
    expect(statePath({ a: { b: 'c' } })).toBe('a.b.c');
  });
});
