import { describe, expect, it } from 'vitest';
import { gradeLetter, outcomeFor, qualificationLabel } from './outcome.js';

describe('outcomeFor', () => {
  it('maps book_call or A to book_call', () => {
    expect(outcomeFor('book_call')).toBe('book_call');
    expect(outcomeFor('A')).toBe('book_call');
  });

  it('maps homework or B to homework', () => {
    expect(outcomeFor('homework')).toBe('homework');
    expect(outcomeFor('B')).toBe('homework');
  });

  it('maps fallback grading labels: QUALIFIED to book_call, MAYBE to homework, anything else to nurture', () => {
    expect(outcomeFor('QUALIFIED')).toBe('book_call');
    expect(outcomeFor('MAYBE')).toBe('homework');
    expect(outcomeFor('NURTURE')).toBe('nurture');
  });

  it('maps anything else, or nothing, to nurture', () => {
    for (const q of ['nurture', 'C', 'a', 'Book_Call', '', null, undefined]) expect(outcomeFor(q)).toBe('nurture');
  });
});

describe('qualificationLabel', () => {
  it('is QUALIFIED at 70+, MAYBE at 50 to under 70, NURTURE below 50', () => {
    expect([100, 70, 69, 50, 49, 0].map(qualificationLabel)).toEqual(['QUALIFIED', 'QUALIFIED', 'MAYBE', 'MAYBE', 'NURTURE', 'NURTURE']);
  });
});

describe('gradeLetter', () => {
  it('is QUALIFIED = A, MAYBE = B, NURTURE = C', () => {
    expect(['QUALIFIED', 'MAYBE', 'NURTURE', 'other'].map(gradeLetter)).toEqual(['A', 'B', 'C', 'C']);
  });

  it('round-trips through the outcome mapping', () => {
    expect([85, 60, 20].map((t) => outcomeFor(gradeLetter(qualificationLabel(t))))).toEqual(['book_call', 'homework', 'nurture']);
  });
});
