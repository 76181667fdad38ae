import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { REPORT_FONTS, shareFontMetrics } from './pdf-fonts.js';

// kerning pairs (AV, To, Yo), accents and wrapping, in every font of the report
const SAMPLE = 'AVATAR To You: "Wave" -- Tactful, Yearly; naïve coöperation. '.repeat(6);

/** Each report font's paragraph, drawn into `doc`, and the finished file. */
function drawn(doc: PDFKit.PDFDocument): Promise<string> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<string>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks).toString('latin1'))));
  for (const name of REPORT_FONTS) doc.font(name).fontSize(11).text(SAMPLE, { width: 300 });
  doc.end();
  return done;
}

/** The page's drawing operators, each font named by its place of first use rather than its id. */
function pageOperators(pdf: string): string {
  const content = [...pdf.matchAll(/stream\r?\n([\s\S]*?)endstream/g)].map((m) => m[1]!).find((stream) => / Tf/.test(stream)) ?? '';
  const order: string[] = [];
  return content.replace(/\/(F\d+) /g, (_, id: string) => {
    if (!order.includes(id)) order.push(id);
    return `/font${order.indexOf(id)} `;
  });
}

describe('the report fonts with their metrics indexed once', () => {
  it('lay text out exactly as pdfkit does with its own fonts: the same widths, kerning and line breaks', async () => {
    const own = await drawn(new PDFDocument({ compress: false }));
    const doc = new PDFDocument({ compress: false, font: null as unknown as string });
    shareFontMetrics(doc);
    doc.font('Helvetica');
    const shared = await drawn(doc);
    expect(pageOperators(shared)).toBe(pageOperators(own));
    expect(pageOperators(own)).toContain(' TJ');
  });

  it('gives every document fonts of its own, each embedded in it', async () => {
    const files = [];
    for (let n = 0; n < 2; n += 1) {
      const doc = new PDFDocument({ compress: false, font: null as unknown as string });
      shareFontMetrics(doc);
      files.push(await drawn(doc.font('Helvetica')));
    }
    for (const file of files) {
      for (const name of REPORT_FONTS) expect(file).toContain(`/BaseFont /${name}`);
    }
  });
});
