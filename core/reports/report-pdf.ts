import PDFDocument from 'pdfkit';
import { DISPLAY_DIMENSIONS, DisplayDimension } from '#machines/content/index.js';
import { outcomeFor } from '#machines/grading/outcome.js';
import type { Tier } from '#machines/protocol/common.js';
import { BRAND } from '../email/layout.js';
import { archetypeCopy, nextStep } from './content.js';

/** What a report shows: the result object, reduced to its printable parts. */
export interface ReportInput {
  archetype: string;
  narrative: string;
  /** The six display dimensions, 0-100; a canned or diagnostic-only result may carry only some. */
  scores: Partial<Record<DisplayDimension, number>>;
  keyInsights: readonly string[];
  /** Chooses the next step; null when only the diagnostic was graded. */
  tier: Tier | null;
  fallback: boolean;
}

/** Whom the report is for. */
export interface ReportLead {
  name: string | null;
}

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
};

/** The report of a graded result. */
export function reportOf(result: GradedResult): ReportInput {
  return {
    archetype: result.archetype,
    narrative: result.narrative,
    scores: result.scores,
    keyInsights: result.keyInsights,
    tier: outcomeFor(result.qualification),
    fallback: result.fallback,
  };
}

/** The product's results-page note for a fallback result. */
const FALLBACK_NOTE = 'Results generated using our comprehensive local assessment system.';
const FOOTNOTE = 'Scores run from 0 to 100. Retake the diagnostic in 6-12 months to see how you have moved.';

const MARGIN = 56;
const serif = 'Times-Roman';
const serifBold = 'Times-Bold';
const sans = 'Helvetica';
const sansBold = 'Helvetica-Bold';

type Doc = PDFKit.PDFDocument;

const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

function header(doc: Doc, lead: ReportLead | null, date: Date): void {
  const height = 96;
  doc.rect(0, 0, doc.page.width, height).fill(BRAND.ink);
  doc.rect(0, height, doc.page.width, 4).fill(BRAND.brass);
  doc.font(sansBold).fontSize(9).fillColor(BRAND.brass).text(BRAND.name.toUpperCase(), MARGIN, 30, { characterSpacing: 2.5 });
  doc.font(serifBold).fontSize(22).fillColor('#ffffff').text('Leadership Diagnostic Report', MARGIN, 46);
  const prepared = [
    lead?.name ? `Prepared for ${lead.name}` : null,
    date.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }),
  ]
    .filter(Boolean)
    .join('\n');
  doc
    .font(sans)
    .fontSize(9)
    .fillColor('#ffffff')
    .text(prepared, MARGIN, 34, { width: contentWidth(doc), align: 'right' });
  doc.x = MARGIN;
  doc.y = height + 32;
}

/** A section's title, on a new page unless it fits with the first `keepWith` points of what follows. */
function sectionTitle(doc: Doc, title: string, keepWith: number): void {
  ensureSpace(doc, 30 + keepWith);
  doc.moveDown(0.8);
  doc.font(sansBold).fontSize(10).fillColor(BRAND.brass).text(title.toUpperCase(), MARGIN, doc.y, { characterSpacing: 1.5 });
  doc.moveDown(0.4);
}

function body(doc: Doc, text: string, options: PDFKit.Mixins.TextOptions = {}): void {
  doc
    .font(serif)
    .fontSize(11.5)
    .fillColor(BRAND.ink)
    .text(text, MARGIN, doc.y, { width: contentWidth(doc), lineGap: 3, ...options });
}

function archetypeSection(doc: Doc, report: ReportInput): void {
  doc.font(sans).fontSize(10).fillColor(BRAND.muted).text('Your leadership archetype', MARGIN, doc.y);
  doc
    .font(serifBold)
    .fontSize(26)
    .fillColor(BRAND.ink)
    .text(report.archetype, MARGIN, doc.y + 2, { width: contentWidth(doc) });
  const { tagline } = archetypeCopy(report.archetype);
  if (tagline)
    doc
      .font('Times-Italic')
      .fontSize(13)
      .fillColor(BRAND.muted)
      .text(tagline, MARGIN, doc.y + 2);
  doc.moveDown(0.8);
  body(doc, report.narrative);
  if (report.fallback) {
    doc.moveDown(0.5);
    doc
      .font('Helvetica-Oblique')
      .fontSize(9)
      .fillColor(BRAND.muted)
      .text(FALLBACK_NOTE, MARGIN, doc.y, { width: contentWidth(doc) });
  }
}

const CHART_ROW = 34;
/** The chart's rows and its axis labels. */
const CHART_HEIGHT = CHART_ROW * DisplayDimension.options.length + 30;

/** A horizontal bar per display dimension on a 0-100 grid, drawn as vector shapes. */
function scoreChart(doc: Doc, scores: ReportInput['scores']): void {
  const labelWidth = 190;
  const valueWidth = 36;
  const barX = MARGIN + labelWidth;
  const barWidth = contentWidth(doc) - labelWidth - valueWidth;
  const dimensions = DisplayDimension.options;
  ensureSpace(doc, CHART_HEIGHT);
  const top = doc.y + 4;
  const bottom = top + CHART_ROW * dimensions.length;

  for (const tick of [0, 25, 50, 75, 100]) {
    const x = barX + (barWidth * tick) / 100;
    doc
      .save()
      .moveTo(x, top - 4)
      .lineTo(x, bottom)
      .lineWidth(0.5)
      .dash(2, { space: 3 })
      .strokeColor('#c8ccd0')
      .stroke()
      .restore();
    doc
      .font(sans)
      .fontSize(7.5)
      .fillColor(BRAND.muted)
      .text(String(tick), x - 10, bottom + 4, { width: 20, align: 'center' });
  }

  dimensions.forEach((dimension, i) => {
    const y = top + i * CHART_ROW;
    const score = scores[dimension];
    doc
      .font(sansBold)
      .fontSize(10)
      .fillColor(BRAND.ink)
      .text(dimension, MARGIN, y + 2, { lineBreak: false });
    doc
      .font(sans)
      .fontSize(8)
      .fillColor(BRAND.muted)
      .text(DISPLAY_DIMENSIONS[dimension].label, MARGIN, y + 15, { width: labelWidth - 12 });
    doc.roundedRect(barX, y + 6, barWidth, 14, 3).fill(BRAND.sand);
    if (score === undefined) {
      doc
        .font('Helvetica-Oblique')
        .fontSize(8)
        .fillColor(BRAND.muted)
        .text('not measured', barX + 6, y + 9, { lineBreak: false });
      return;
    }
    const clamped = Math.max(0, Math.min(100, score));
    if (clamped > 0) doc.roundedRect(barX, y + 6, (barWidth * clamped) / 100, 14, 3).fill(clamped >= 70 ? BRAND.ink : BRAND.brass);
    doc
      .font(sansBold)
      .fontSize(10)
      .fillColor(BRAND.ink)
      .text(String(Math.round(score)), barX + barWidth + 8, y + 8, { width: valueWidth - 8, align: 'right', lineBreak: false });
  });
  doc.x = MARGIN;
  doc.y = bottom + 22;
}

const itemOptions = (doc: Doc): PDFKit.Mixins.TextOptions => ({ width: contentWidth(doc) - 20, lineGap: 3 });

/** A list item's wrapped height, so that an item is never split across two pages. */
function itemHeight(doc: Doc, item: string): number {
  return doc.font(serif).fontSize(11.5).heightOfString(item, itemOptions(doc));
}

/** A titled list; the title keeps with the whole first item. */
function listSection(doc: Doc, title: string, items: readonly string[], ordered: boolean): void {
  const heights = items.map((item) => itemHeight(doc, item));
  sectionTitle(doc, title, heights[0] ?? 0);
  items.forEach((item, i) => {
    ensureSpace(doc, heights[i]!);
    const y = doc.y;
    doc
      .font(sansBold)
      .fontSize(10.5)
      .fillColor(BRAND.brass)
      .text(ordered ? `${i + 1}` : '•', MARGIN, y + 1, { width: 16, lineBreak: false });
    doc
      .font(serif)
      .fontSize(11.5)
      .fillColor(BRAND.ink)
      .text(item, MARGIN + 20, y, itemOptions(doc));
    doc.moveDown(0.5);
  });
}

/** The next-step box's height, so its section title can keep with the whole box. */
function nextStepHeight(doc: Doc, tier: Tier | null): number {
  doc.font(serif).fontSize(11.5);
  return doc.heightOfString(nextStep(tier).body, { width: contentWidth(doc) - 36, lineGap: 3 }) + 50;
}

/** The footnote's height with the space above it. */
function footnoteHeight(doc: Doc): number {
  return (
    8 +
    doc
      .font(sans)
      .fontSize(8)
      .heightOfString(FOOTNOTE, { width: contentWidth(doc) })
  );
}

function nextStepBox(doc: Doc, tier: Tier | null): void {
  const step = nextStep(tier);
  const width = contentWidth(doc) - 36;
  const height = nextStepHeight(doc, tier);
  ensureSpace(doc, height + 6);
  const top = doc.y + 6;
  doc.rect(MARGIN, top, contentWidth(doc), height).fill(BRAND.sand);
  doc.rect(MARGIN, top, 4, height).fill(BRAND.brass);
  doc
    .font(serifBold)
    .fontSize(14)
    .fillColor(BRAND.ink)
    .text(step.title, MARGIN + 18, top + 14, { width });
  doc
    .font(serif)
    .fontSize(11.5)
    .fillColor(BRAND.ink)
    .text(step.body, MARGIN + 18, doc.y + 4, { width, lineGap: 3 });
  doc.x = MARGIN;
  doc.y = top + height + 12;
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
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: {
      Title: `Leadership Diagnostic Report: ${report.archetype}`,
      Author: BRAND.name,
      Subject: lead?.name ? `Leadership diagnostic results for ${lead.name}` : 'Leadership diagnostic results',
      CreationDate: date,
    },
  });
  const output = collect(doc);

  header(doc, lead, date);
  archetypeSection(doc, report);
  sectionTitle(doc, 'Your dimension scores', CHART_HEIGHT);
  scoreChart(doc, report.scores);
  if (report.keyInsights.length) listSection(doc, 'Key insights', report.keyInsights, false);
  listSection(doc, 'Three actions to start with', archetypeCopy(report.archetype).actions, true);
  // title, box and footnote close the report together: neither the title nor the footnote is left alone on a page
  const footnote = footnoteHeight(doc);
  sectionTitle(doc, 'Your next step', 6 + nextStepHeight(doc, report.tier) + 12 + footnote);
  nextStepBox(doc, report.tier);
  ensureSpace(doc, footnote);
  doc
    .font(sans)
    .fontSize(8)
    .fillColor(BRAND.muted)
    .text(FOOTNOTE, MARGIN, doc.y + 8, { width: contentWidth(doc) });

  doc.end();
  return output;
}
