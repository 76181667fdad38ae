/* The report's page: margins, fonts, and the text and titles every section is set in. */

import { BRAND } from '../email/layout.js';

export const MARGIN = 56;
export const serif = 'Times-Roman';
export const serifBold = 'Times-Bold';
export const sans = 'Helvetica';
export const sansBold = 'Helvetica-Bold';

export type Doc = PDFKit.PDFDocument;

export const contentWidth = (doc: Doc) => doc.page.width - MARGIN * 2;

/** Starts a new page when fewer than `height` points are left above the bottom margin. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

/** A section's title, on a new page unless it fits with the first `keepWith` points of what follows. */
export function sectionTitle(doc: Doc, title: string, keepWith: number): void {
  ensureSpace(doc, 30 + keepWith);
  doc.moveDown(0.8);
  doc.font(sansBold).fontSize(10).fillColor(BRAND.brass).text(title.toUpperCase(), MARGIN, doc.y, { characterSpacing: 1.5 });
  doc.moveDown(0.4);
}

export function body(doc: Doc, text: string, options: PDFKit.Mixins.TextOptions = {}): void {
  doc
    .font(serif)
    .fontSize(11.5)
    .fillColor(BRAND.ink)
    .text(text, MARGIN, doc.y, { width: contentWidth(doc), lineGap: 3, ...options });
}
