import { describe, expect, it } from 'vitest';
import {
  archetypeByName,
  archetypes,
  ArchetypeName,
  diagnosticBank,
  diagnosticBanks,
  diagnosticScreens,
  flattenBank,
  qualificationSurvey,
  timedQuestions,
} from './index.js';

describe('diagnosticBank (v2)', () => {
  it('is version 2.0.0 with the block sizes', () => {
    expect(diagnosticBank.version).toBe('2.0.0');
    expect(diagnosticBank.baseline.items).toHaveLength(8);
    expect(diagnosticBank.advanced_traits?.items).toHaveLength(9);
    expect(diagnosticBank.priority_ranking?.items.map((i) => i.id)).toEqual(['capability', 'results', 'stakeholder', 'process', 'vision']);
  });

  it('has the four vignettes with their time limits, each with a 1-5 confidence follow-up', () => {
    const vignettes = diagnosticBank.vignettes?.items ?? [];
    expect(vignettes.map((v) => [v.id, v.timeLimitSec])).toEqual([
      ['vig_dc', 50],
      ['vig_heat', 45],
      ['vig_ownership', 40],
      ['vig_scale', 45],
    ]);
    for (const v of vignettes) {
      expect(v.followup?.scale).toHaveLength(5);
      for (const o of v.options) expect(Object.keys(o.weights).length).toBeGreaterThan(0);
    }
  });

  it('contains every item and option the grading rules name', () => {
    const likertIds = diagnosticScreens.filter((s) => s.type === 'likert').map((s) => s.id);
    expect(likertIds).toEqual(expect.arrayContaining(['dcr1', 'own1', 'b2', 'tr1', 'tr3']));
    const scale = diagnosticBank.vignettes?.items.find((v) => v.id === 'vig_scale');
    expect(scale?.options.map((o) => o.id)).toContain('scale_maintain');
  });

  it('never makes scale_maintain the timeout answer, so a timeout cannot trigger a contradiction', () => {
    const scale = diagnosticBank.vignettes?.items.find((v) => v.id === 'vig_scale');
    expect(scale?.options[0]?.id).not.toBe('scale_maintain');
  });

  it('mixes reverse-scored items into both likert blocks, so straight-lining contradicts itself', () => {
    for (const block of [diagnosticBank.baseline, diagnosticBank.advanced_traits]) {
      const reverse = block?.items.filter((i) => i.reverse).length ?? 0;
      expect(reverse).toBeGreaterThan(0);
      expect(reverse).toBeLessThan(block?.items.length ?? 0);
    }
  });
});

describe('the count resolution', () => {
  it('shows 22 screens: 8 + 9 likert, 1 ranking, 4 vignettes', () => {
    expect(diagnosticScreens).toHaveLength(8 + 9 + 1 + 4);
  });

  it('times questions 19 to 22 for 50 + 45 + 40 + 45 = 180 seconds, starting at index 18', () => {
    expect(timedQuestions).toEqual({
      numbers: [19, 20, 21, 22],
      firstIndex: 18,
      totalSeconds: 180,
      sentence: 'Questions 19 to 22 are timed: 180 seconds in total (50, 45, 40 and 45 seconds).',
    });
  });
});

describe('older banks', () => {
  it('carries v1 and the built-in bank for answers taken on them', () => {
    expect(diagnosticBanks.get('1.0.0')?.baseline.items.length).toBeGreaterThan(0);
    const builtin = diagnosticBanks.get('0.0.0');
    expect(builtin && flattenBank(builtin).map((s) => s.type === 'likert' && s.item.dimension)).toEqual([
      'LER',
      'DCR',
      'OwnershipFault',
      'TrustDelta',
    ]);
  });
});

describe('qualificationSurvey', () => {
  const question = (id: string) => qualificationSurvey.questions.find((q) => q.id === id);
  const options = (id: string) => {
    const q = question(id);
    return q?.kind === 'choice' ? q.options : [];
  };
  const flags = (id: string) => Object.fromEntries(options(id).map((o) => [o.id, o.flag]));

  it('has the seven questions, q1 to q5 required', () => {
    expect(qualificationSurvey.questions.map((q) => [q.id, q.kind, q.required])).toEqual([
      ['q1_investment', 'choice', true],
      ['q2_time', 'choice', true],
      ['q3_urgency', 'choice', true],
      ['q4_mindset', 'choice', true],
      ['q5_success', 'text', true],
      ['q6_context', 'text', false],
      ['q7_team', 'text', false],
    ]);
  });

  it('states the program investment in q1', () => {
    expect(question('q1_investment')?.prompt).toContain('$25,000-50,000');
  });

  it('flags the options the qualification rules name', () => {
    expect(flags('q1_investment')).toEqual({
      ready_now: 'ready',
      payment_terms: 'ready',
      need_time: 'delay',
      not_ready: 'disqualify',
    });
    expect(flags('q2_time')).toEqual({
      start_immediately: 'ready',
      start_30_days: 'ready',
      not_3_months: 'delay',
      schedule_full: 'disqualify',
    });
    expect(flags('q3_urgency')).toMatchObject({ critical: 'critical' });
    expect(flags('q4_mindset')).toMatchObject({ validation: 'validation' });
    const elsewhere = ['q3_urgency', 'q4_mindset'].flatMap((id) =>
      options(id)
        .map((o) => o.flag)
        .filter(Boolean),
    );
    expect(elsewhere).toEqual(['critical', 'validation']);
  });

  it('weighs the best answers to exactly 10 points, so the survey score is 10 × points', () => {
    const best = ['q1_investment', 'q2_time', 'q3_urgency', 'q4_mindset']
      .map((id) => Math.max(...options(id).map((o) => o.score * o.weight)))
      .reduce((a, b) => a + b, 0);
    expect(best).toBeCloseTo(10, 10);
  });
});

describe('archetypes', () => {
  it('has all eight, each with a narrative and three actions', () => {
    expect(archetypes.map((a) => a.name).sort()).toEqual([...ArchetypeName.options].sort());
    for (const a of archetypes) {
      expect(a.narrative.length).toBeGreaterThan(100);
      expect(a.actions).toHaveLength(3);
    }
  });

  it('looks one up by name', () => {
    expect(archetypeByName('Reluctant Steward').tagline).toBe('Takes responsibility, hesitates to take the lead.');
  });
});
