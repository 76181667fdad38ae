import { describe, expect, it } from 'vitest';
import { archetypeByName, archetypes } from '#machines/content/index.js';
import { nextStep } from './content.js';
import { cannedResult } from '#machines/grading/canned.js';
import type { ReportInput } from './report-input.js';
import { buildReportPdf, reportOf } from './report-pdf.js';

/** The text drawn on the pages of an uncompressed pdfkit PDF (its TJ operators carry hex strings). */
function pageText(pdf: Buffer): string {
  const arrays = pdf.toString('latin1').match(/\[([^\]]*)\] TJ/g) ?? [];
  return arrays
    .map((array) => [...array.matchAll(/<([0-9a-f]*)>/gi)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1')).join(''))
    .join('\n');
}

/** The text of each page, in order: an uncompressed pdfkit PDF has one content stream per page. */
function pagesText(pdf: Buffer): string[] {
  const streams = pdf.toString('latin1').match(/stream\r?\n[\s\S]*?endstream/g) ?? [];
  return streams.filter((stream) => / TJ/.test(stream)).map((stream) => pageText(Buffer.from(stream, 'latin1')));
}

const driver = archetypeByName('Command-First Driver');

const report: ReportInput = {
  archetype: driver.name,
  narrative: driver.narrative,
  scores: { LER: 72, DCR: 81, TBR: 44, OAD: 58, VIS: 66, FAD: 49 },
  leadershipScore: 71.6,
  keyInsights: ['Decisions move fast, but disagreement rarely reaches you.'],
  tier: 'book_call',
  fallback: false,
};

describe('buildReportPdf', () => {
  it('draws the archetype, narrative, six scores, insights, the three actions and the next step', async () => {
    const pdf = await buildReportPdf(report, { name: 'Ada Lovelace' }, { compress: false, date: new Date('2026-03-01T12:00:00Z') });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pageText(pdf);
    for (const expected of [
      'Leadership Diagnostic Report',
      'Prepared for Ada Lovelace',
      'March 1, 2026',
      'Command-First Driver',
      driver.tagline,
      'Leadership Effectiveness',
      'Ownership Accountability Detachment',
      'Friction Adaptability',
      'Book your 45-minute strategy session',
    ]) {
      expect(text).toContain(expected);
    }
    // wrapped lines split sentences; their openings are enough to show each one is there
    for (const sentence of [report.narrative, report.keyInsights[0]!, ...driver.actions]) expect(text).toContain(sentence.slice(0, 30));
    for (const score of ['72', '81', '44', '58', '66', '49']) expect(text.split('\n')).toContain(score);
  });

  // 192 PDFs: about 5 s on a quiet machine, more while other test files share its two cores
  it("keeps 'Your next step' on the page of its box for every archetype, tier and number of insights", async () => {
    const insights = [
      'Your strongest dimension is Ownership Accountability Detachment (91/100).',
      'Your growth edge is Friction Adaptability (12/100).',
      'Across the statements you rated, your answers place you at the Developing Leader level.',
      'Some of your answers pull in different directions; that tension is worth exploring with a coach.',
      'Time ran out on 3 of the scenarios: a default answer was recorded, and it does not count toward your scores.',
    ];
    for (const archetype of archetypes) {
      for (const tier of ['book_call', 'homework', 'nurture', null] as const) {
        for (let count = 0; count <= insights.length; count++) {
          const label = `${archetype.name}, ${tier}, ${count} insights`;
          const input = {
            ...report,
            archetype: archetype.name,
            narrative: archetype.narrative,
            keyInsights: insights.slice(0, count),
            tier,
          };
          const pages = pagesText(await buildReportPdf(input, { name: 'Ada Lovelace' }, { compress: false }));
          const titled = pages.findIndex((page) => page.includes('YOUR NEXT STEP'));
          expect(titled, label).toBeGreaterThanOrEqual(0);
          expect(pages[titled], `${label}: the step's box follows its title`).toContain(nextStep(tier).title);
        }
      }
    }
  }, 30_000);

  it('names the archetype in the document title, readable even when the pages are compressed', async () => {
    const pdf = await buildReportPdf(report, null);
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
    expect(pdf.toString('latin1')).toContain('(Leadership Diagnostic Report: Command-First Driver)');
  });

  it('shows a canned result: its three scores, the others not measured, starter actions, the fallback note', async () => {
    const canned = reportOf({ ...cannedResult(), qualification: 'nurture' });
    expect(canned.tier).toBe('nurture');
    const text = pageText(await buildReportPdf(canned, { name: null }, { compress: false }));
    expect(text).toContain('Emerging Leader');
    expect(text).toContain('Results generated using our comprehensive local assessment system.');
    expect(text.match(/not measured/g)).toHaveLength(3);
    expect(text).toContain('Hold a thirty-minute one-to-one');
    expect(text).toContain('Join the free community');
    expect(text).not.toContain('Prepared for');
  });

  it('maps an older grader label to its tier and asks for the survey when there is no tier', async () => {
    expect(reportOf({ ...report, qualification: 'B' }).tier).toBe('homework');
    const text = pageText(await buildReportPdf({ ...report, tier: null }, null, { compress: false }));
    expect(text).toContain('Complete the qualification survey');
  });
});
