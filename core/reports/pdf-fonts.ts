import type PDFDocument from 'pdfkit';

/** The standard PDF fonts the report draws with (report-pdf-layout.ts and its sections). */
export const REPORT_FONTS = ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Times-Roman', 'Times-Bold', 'Times-Italic'] as const;

/** The parts of a pdfkit document and of its standard fonts this module reaches (pdfkit 0.20). */
interface FontedDocument {
  _fontFamilies: Record<string, object>;
  _fontCount: number;
}
interface StandardFontFields {
  document: unknown;
  id: string;
  /** The font's metrics (pdfkit's AFMFont), read-only once read. */
  font: FontMetrics;
}
interface FontMetrics {
  kernPairs: Record<string, number>;
  glyphWidths: Record<string, number>;
}

/**
 * The font's two per-glyph lookups over Maps built once. pdfkit keeps some 2,700 kerning pairs in
 * one object keyed by a string it concatenates for every pair of glyphs it measures or draws; that
 * lookup and the glyph widths' took about a sixth of a report's time. Same answers: a missing pair or
 * glyph is 0.
 */
function indexedLookups(font: FontMetrics) {
  const kerning = new Map<string, Map<string, number>>();
  for (const [pair, amount] of Object.entries(font.kernPairs)) {
    const [left, right] = pair.split('\0') as [string, string];
    let row = kerning.get(left);
    if (!row) kerning.set(left, (row = new Map<string, number>()));
    row.set(right, amount);
  }
  const widths = new Map(Object.entries(font.glyphWidths));
  return {
    getKernPair: (left: string, right: string | undefined) => (right === undefined ? 0 : (kerning.get(left)?.get(right) ?? 0)),
    widthOfGlyph: (glyph: string) => widths.get(glyph) ?? 0,
  };
}

/** One indexed font per name: its metrics, drawn by no document. */
let indexed: Map<string, StandardFontFields> | null = null;

function indexFonts(Document: typeof PDFDocument): Map<string, StandardFontFields> {
  const probe = new Document({ font: null as unknown as string, autoFirstPage: false });
  const fonts = new Map<string, StandardFontFields>();
  for (const name of REPORT_FONTS) {
    probe.font(name);
    const font = (probe as unknown as { _font: StandardFontFields })._font;
    Object.assign(font.font, indexedLookups(font.font));
    fonts.set(name, font);
  }
  return fonts;
}

/**
 * Gives a new document the report's standard fonts with their metrics indexed once per process.
 * pdfkit reads and indexes a standard font's metrics (glyph widths and some 2,700 kerning pairs)
 * for every document that uses the font, about a third of the time a report takes; the metrics
 * never change. Each document still gets fonts of its own (its own id and PDF object, embedded
 * only when used), sharing only the read-only metrics.
 */
export function shareFontMetrics(doc: PDFKit.PDFDocument): void {
  // pdfkit's class from the document itself: pdfkit is loaded only by a process that draws a PDF
  indexed ??= indexFonts(doc.constructor as typeof PDFDocument);
  const fonted = doc as unknown as FontedDocument;
  for (const [name, template] of indexed) {
    if (fonted._fontFamilies[name]) continue;
    const font = Object.assign(Object.create(Object.getPrototypeOf(template) as object) as StandardFontFields, template, {
      document: doc,
      id: `F${++fonted._fontCount}`,
    });
    fonted._fontFamilies[name] = font;
  }
}
