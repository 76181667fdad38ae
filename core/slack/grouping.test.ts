import { describe, expect, it } from 'vitest';
import { readAssessmentMention } from './grouping.js';

describe('readAssessmentMention', () => {
  it('reads the key and candidate from a typical bot post', () => {
    expect(readAssessmentMention('New leadership assessment started\nAssessment: LDR-1042\nCandidate: Jane Doe')).toEqual({
      assessmentKey: 'LDR-1042',
      candidateName: 'Jane Doe',
      completes: false,
    });
  });

  it('accepts the #, ID and key spellings in any case, and ignores Slack formatting', () => {
    expect(readAssessmentMention('assessment #a7f3 scored').assessmentKey).toBe('a7f3');
    expect(readAssessmentMention('*Assessment ID:* x_9.2 | *Candidate:* _Ada Lovelace_')).toMatchObject({
      assessmentKey: 'x_9.2',
      candidateName: 'Ada Lovelace',
    });
    expect(readAssessmentMention('ASSESSMENT KEY: k1; candidate name: Grace Hopper; status: done')).toEqual({
      assessmentKey: 'k1',
      candidateName: 'Grace Hopper',
      completes: true,
    });
  });

  it('marks completion only with an explicit status or "assessment complete"', () => {
    expect(readAssessmentMention('Assessment: k2 - Assessment completed').completes).toBe(true);
    expect(readAssessmentMention('Assessment: k2\nStatus: complete').completes).toBe(true);
    expect(readAssessmentMention('Assessment: k2 — 3 of 5 sections complete').completes).toBe(false);
  });

  it('a message without a key belongs to no assessment, whatever else it says', () => {
    expect(readAssessmentMention('Deploy finished. Candidate: nobody. Status: done')).toEqual({
      assessmentKey: null,
      candidateName: null,
      completes: false,
    });
    expect(readAssessmentMention('the assessments are ready')).toMatchObject({ assessmentKey: null });
  });

  it('stops a candidate name at a line break, bar or semicolon and trims trailing punctuation', () => {
    expect(readAssessmentMention('Assessment: k3 Candidate: Sam Lee.\nScore: 80').candidateName).toBe('Sam Lee');
  });
});
