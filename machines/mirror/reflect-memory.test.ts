import { describe, expect, it } from 'vitest';
import { peopleIn, referent, remember, subjectName } from './reflect-memory.js';

describe('remembering a conversation', () => {
  it('carries a name given once into later messages that name them without a person verb', () => {
    const memory = remember([
      'I have to decide whether to move Tom off the project.',
      'Tom might take it personally.',
      'My boss is watching.',
    ]);
    expect(memory.people).toEqual([
      { name: 'Tom', individual: true, turns: [0, 1] },
      { name: 'your boss', individual: true, turns: [2] },
    ]);
    expect(memory.mentions[1]).toEqual([{ kind: 'person', quote: 'Tom', name: 'Tom' }]);
  });

  it('matches a name given in lowercase in any case, and a capitalised one only as written', () => {
    expect(remember(['i want to fire marcus', 'Marcus knows it is coming.']).people[0]!.turns).toEqual([0, 1]);
    expect(remember(['I had to tell Will.', 'I will wait.']).people[0]!.turns).toEqual([0]);
  });

  it('takes the people the decision names as the subject, else whoever is named most often, first on a tie', () => {
    const twoInTheDecision = ["I'm torn between promoting Aisha and promoting Ben.", 'Ben expects it.', 'Ben said so.'];
    expect(subjectName(remember(twoInTheDecision))).toBe('Aisha and Ben');
    expect(subjectName(remember(['Whether to give my manager feedback.', 'Tom agrees.', 'I asked Tom again.']))).toBe('your manager');
    expect(subjectName(remember(['Work is hard.', 'My boss never listens.', 'I told Priya.', 'Priya said we should wait.']))).toBe('Priya');
    expect(subjectName(remember(['My boss never listens.', 'I told Priya.']))).toBe('your boss');
    expect(subjectName(remember(['Whether to leave my job.', 'It is risky.']))).toBeUndefined();
  });

  it('follows a pronoun to the one person it can mean, and never guesses between two', () => {
    const memory = remember(['I asked Priya to lead it.', 'The rest of the team is unhappy.', 'She never delivers.']);
    expect(referent(memory, 'she', 2)?.name).toBe('Priya');
    expect(referent(memory, 'they', 2)?.name).toBe('the team');
    const two = remember(['I told Tom and my boss.', 'He never listens.']);
    expect(referent(two, 'he', 1)).toBeUndefined();
    expect(peopleIn(remember(['My team lead Dana keeps missing meetings.', 'I am thinking about moving her.']), 'moving her', 1)).toEqual([
      { name: 'Dana', individual: true, turns: [0] },
    ]);
  });

  it('knows where the visitor began and when the decision came up', () => {
    const memory = remember(['hi', 'Things are tense.', 'I am thinking about splitting the team.']);
    expect(memory.beginning).toBe(1);
    expect(memory.decision).toMatchObject({ turn: 2, signal: { kind: 'decision', quote: 'splitting the team', frame: 'about' } });
  });
});
