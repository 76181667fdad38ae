import { DISPLAY_DIMENSIONS, DisplayDimension } from '#machines/content/index.js';
import { BRAND } from '../email/layout.js';
import type { ReportInput } from './report-input.js';
import { contentWidth, ensureSpace, MARGIN, sans, sansBold, type Doc } from './report-pdf-layout.js';

const CHART_ROW = 34;
/** The chart's rows and its axis labels. */
export const CHART_HEIGHT = CHART_ROW * DisplayDimension.options.length + 30;

/** A horizontal bar per display dimension on a 0-100 grid, drawn as vector shapes. */
export function scoreChart(doc: Doc, scores: ReportInput['scores']): void {
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
