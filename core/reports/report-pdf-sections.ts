/* The report's sections, top to bottom, each drawn where the last one ended. */

import { formatScore, SCORE_NAMES } from '#machines/grading/score-names.js';
import type { Tier } from '#machines/protocol/common.js';
import { BRAND } from '../email/layout.js';
import { archetypeCopy, nextStep } from './content.js';
import type { ReportInput, ReportLead } from './report-input.js';
import { body, contentWidth, ensureSpace, MARGIN, sans, sansBold, sectionTitle, serif, serifBold, type Doc } from './report-pdf-layout.js';

/** Made once: toLocaleDateString builds a new formatter at every call (about 50 µs). */
const REPORT_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The branded band: the brand, the title, whom the report is for and its date. */
export function header(doc: Doc, lead: ReportLead | null, date: Date): void {
  const height = 96;
  doc.rect(0, 0, doc.page.width, height).fill(BRAND.ink);
  doc.rect(0, height, doc.page.width, 4).fill(BRAND.brass);
  doc.font(sansBold).fontSize(9).fillColor(BRAND.brass).text(BRAND.name.toUpperCase(), MARGIN, 30, { characterSpacing: 2.5 });
  doc.font(serifBold).fontSize(22).fillColor('#ffffff').text('Leadership Diagnostic Report', MARGIN, 46);
  const prepared = [lead?.name ? `Prepared for ${lead.name}` : null, REPORT_DATE.format(date)].filter(Boolean).join('\n');
  doc
    .font(sans)
    .fontSize(9)
    .fillColor('#ffffff')
    .text(prepared, MARGIN, 34, { width: contentWidth(doc), align: 'right' });
  doc.x = MARGIN;
  doc.y = height + 32;
}

/** The product's results-page note for a fallback result. */
const FALLBACK_NOTE = 'Results generated using our comprehensive local assessment system.';
const FOOTNOTE = 'Scores run from 0 to 100. Retake the diagnostic in 6-12 months to see how you have moved.';

/** The archetype, its tagline and the narrative, with the note a fallback result carries. */
export function archetypeSection(doc: Doc, report: ReportInput): void {
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

/** What the leadership score line takes above the chart. */
export const LEADERSHIP_SCORE_HEIGHT = 26;

/** The leadership score, named and written as on the results screen and in the email. */
export function leadershipScoreLine(doc: Doc, score: number): void {
  const top = doc.y;
  doc.font(sans).fontSize(11).fillColor(BRAND.ink).text(`${SCORE_NAMES.leadership}: `, MARGIN, top, { continued: true });
  doc.font(sansBold).text(formatScore(score));
  doc.x = MARGIN;
  doc.y = top + LEADERSHIP_SCORE_HEIGHT;
}

const itemOptions = (doc: Doc): PDFKit.Mixins.TextOptions => ({ width: contentWidth(doc) - 20, lineGap: 3 });

/** A list item's wrapped height, so that an item is never split across two pages. */
function itemHeight(doc: Doc, item: string): number {
  return doc.font(serif).fontSize(11.5).heightOfString(item, itemOptions(doc));
}

/** A titled list; the title keeps with the whole first item. */
export function listSection(doc: Doc, title: string, items: readonly string[], ordered: boolean): void {
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
export function nextStepHeight(doc: Doc, tier: Tier | null): number {
  doc.font(serif).fontSize(11.5);
  return doc.heightOfString(nextStep(tier).body, { width: contentWidth(doc) - 36, lineGap: 3 }) + 50;
}

/** The footnote's height with the space above it. */
export function footnoteHeight(doc: Doc): number {
  return (
    8 +
    doc
      .font(sans)
      .fontSize(8)
      .heightOfString(FOOTNOTE, { width: contentWidth(doc) })
  );
}

export function nextStepBox(doc: Doc, tier: Tier | null): void {
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

/** The scale and retake note that closes the report; `height` is what footnoteHeight measured. */
export function drawFootnote(doc: Doc, height: number): void {
  ensureSpace(doc, height);
  doc
    .font(sans)
    .fontSize(8)
    .fillColor(BRAND.muted)
    .text(FOOTNOTE, MARGIN, doc.y + 8, { width: contentWidth(doc) });
}
