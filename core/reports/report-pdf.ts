import { outcomeFor } from '#machines/grading/outcome.js';
import { BRAND } from '../email/layout.js';
import { archetypeCopy } from './content.js';
import { shareFontMetrics } from './pdf-fonts.js';
import type { ReportInput, ReportLead } from './report-input.js';
import { CHART_HEIGHT, scoreChart } from './report-pdf-chart.js';
import { MARGIN, sectionTitle, type Doc } from './report-pdf-layout.js';
import {
  archetypeSection,
  drawFootnote,
  footnoteHeight,
  header,
  LEADERSHIP_SCORE_HEIGHT,
  leadershipScoreLine,
  listSection,
  nextStepBox,
  nextStepHeight,
} from './report-pdf-sections.js';

export interface ReportOptions {
  /** Deflate the page streams (default); tests turn it off to read the text. */
  compress?: boolean;
  /** The date printed on the report (default now). */
  date?: Date;
}

/** The printable parts of a graded result, as the flow and assessment_results hold it. */
export type GradedResult = Pick<ReportInput, 'archetype' | 'narrative' | 'scores' | 'keyInsights' | 'fallback'> & {
  /** A tier, or an older grader's label; mapped by the product's outcome rules. */
  qualification: string;
  /** The leadership score, as grading names the composite. */
  compositeScore?: number | undefined;
};

/** The report of a graded result. */
export function reportOf(result: GradedResult): ReportInput {
  return {
    archetype: result.archetype,
    narrative: result.narrative,
    scores: result.scores,
    leadershipScore: result.compositeScore ?? null,
    keyInsights: result.keyInsights,
    tier: outcomeFor(result.qualification),
    fallback: result.fallback,
  };
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/**
 * The PDF report: branded header, archetype and narrative, the six display dimensions as a bar
 * chart, key insights, the archetype's three actions and the tier's next step. Pure apart from
 * the date, which the caller may fix.
 */
export async function buildReportPdf(report: ReportInput, lead: ReportLead | null, options: ReportOptions = {}): Promise<Buffer> {
  const date = options.date ?? new Date();
  // loaded on the first report: a server that never draws one does not hold pdfkit and its fonts
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    // no default font read here: the report's fonts come with their metrics indexed once (pdf-fonts.ts)
    font: null as unknown as string,
    compress: options.compress ?? true,
    info: {
      Title: `Leadership Diagnostic Report: ${report.archetype}`,
      Author: BRAND.name,
      Subject: lead?.name ? `Leadership diagnostic results for ${lead.name}` : 'Leadership diagnostic results',
      CreationDate: date,
    },
  });
  const output = collect(doc);
  shareFontMetrics(doc);
  doc.font('Helvetica');

  header(doc, lead, date);
  archetypeSection(doc, report);
  sectionTitle(doc, 'Your scores', CHART_HEIGHT + (report.leadershipScore === null ? 0 : LEADERSHIP_SCORE_HEIGHT));
  if (report.leadershipScore !== null) leadershipScoreLine(doc, report.leadershipScore);
  scoreChart(doc, report.scores);
  if (report.keyInsights.length) listSection(doc, 'Key insights', report.keyInsights, false);
  listSection(doc, 'Three actions to start with', archetypeCopy(report.archetype).actions, true);
  // title, box and footnote close the report together: neither the title nor the footnote is left alone on a page
  const footnote = footnoteHeight(doc);
  sectionTitle(doc, 'Your next step', 6 + nextStepHeight(doc, report.tier) + 12 + footnote);
  nextStepBox(doc, report.tier);
  drawFootnote(doc, footnote);

  doc.end();
  return output;
}
