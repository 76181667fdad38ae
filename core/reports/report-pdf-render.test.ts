import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { archetypes } from '#machines/content/index.js';
import { cannedResult } from '#machines/grading/canned.js';
import type { ReportInput } from './report-input.js';
import { buildReportPdf, reportOf } from './report-pdf.js';

// Renders real reports with poppler (pdftoppm for the pixels, pdftotext for the words on each page) and
// checks how the content falls on the pages: no page but the last left mostly empty, no last page that
// holds only a stray line, no section title stranded at the foot of a page.

const run = promisify(execFile);
const RESOLUTION = 30;
/** A pixel this dark or darker is ink; the sand of the next-step box (about 241) is not. */
const INK = 200;

interface PageInk {
  /** How far down the page its lowest inked row lies, 0-1. */
  depth: number;
  /** The share of the page's rows that carry ink, 0-1. */
  inkedRows: number;
}

interface Rendered {
  pages: PageInk[];
  /** Each page's text, in reading order. */
  texts: string[];
}

/** A binary PGM (P5), what pdftoppm -gray writes without -png: one byte per pixel, 0 black to 255 white, no decoder needed. */
function inkOf(pgm: Buffer): PageInk {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write an 8-bit binary PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  let lowest = -1;
  let inked = 0;
  for (let row = 0; row < height; row++) {
    let dark = 0;
    for (let i = row * width; i < (row + 1) * width; i++) if (pixels[i]! <= INK) dark++;
    // two dark pixels, not one, so that a speck of anti-aliasing does not count as a line
    if (dark >= 2) {
      lowest = row;
      inked++;
    }
  }
  return { depth: (lowest + 1) / height, inkedRows: inked / height };
}

async function render(pdf: Buffer): Promise<Rendered> {
  const dir = await mkdtemp(path.join(tmpdir(), 'report-render-'));
  try {
    const file = path.join(dir, 'report.pdf');
    await writeFile(file, pdf);
    await run('pdftoppm', ['-r', String(RESOLUTION), '-gray', file, path.join(dir, 'page')]);
    const { stdout } = await run('pdftotext', [file, '-']);
    // page-1.pgm, page-2.pgm ... (zero-padded past nine pages), in page order
    const names = (await readdir(dir)).filter((name) => name.endsWith('.pgm')).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    const pages = await Promise.all(names.map(async (name) => inkOf(await readFile(path.join(dir, name)))));
    // pdftotext ends every page with a form feed
    return { pages, texts: stdout.split('\f').slice(0, pages.length) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `task` over `items` with at most `limit` at once (the box has two cores). */
async function inPool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const insights = [
  'Your strongest dimension is Ownership Accountability Detachment (91/100).',
  'Your growth edge is Friction Adaptability (12/100).',
  'Across the statements you rated, your answers place you at the Developing Leader level.',
  'Some of your answers pull in different directions; that tension is worth exploring with a coach.',
  'Time ran out on 3 of the scenarios: a default answer was recorded, and it does not count toward your scores.',
];
const scores = { LER: 72, DCR: 81, TBR: 44, OAD: 58, VIS: 66, FAD: 49 };

/** Every archetype and tier, with none, three (the fewest graded) and five insights; each archetype diagnosed only; the canned fallback. */
const cases: Array<{ label: string; report: ReportInput }> = [
  ...archetypes.flatMap((archetype) => {
    const base = { archetype: archetype.name, narrative: archetype.narrative, scores, fallback: false };
    return [
      ...(['book_call', 'homework', 'nurture'] as const).flatMap((tier) =>
        [0, 3, 5].map((count) => ({
          label: `${archetype.name}, ${tier}, ${count} insights`,
          report: { ...base, leadershipScore: 64.5, tier, keyInsights: insights.slice(0, count) },
        })),
      ),
      { label: `${archetype.name}, diagnostic only`, report: { ...base, leadershipScore: null, tier: null, keyInsights: [] } },
    ];
  }),
  { label: 'canned fallback result', report: reportOf({ ...cannedResult(), qualification: 'nurture' }) },
];

/** Section titles are letter-spaced, so pdftotext may split their letters: compare them without spaces. */
const squeezed = (line: string) => line.replace(/\s+/g, '');
const SECTION_TITLES = ['YOUR SCORES', 'KEY INSIGHTS', 'THREE ACTIONS TO START WITH', 'YOUR NEXT STEP'].map(squeezed);

describe('the rendered report PDF', () => {
  const rendered = new Map<string, Rendered>();

  beforeAll(async () => {
    // fail, never skip, on a machine without poppler: these checks are the only ones that see the pages
    await run('pdftoppm', ['-v']).catch(() => {
      throw new Error('pdftoppm is missing: install poppler-utils (apt-get install poppler-utils; it brings pdftotext too)');
    });
    const pages = await inPool(cases, 2, async ({ report }) => render(await buildReportPdf(report, { name: 'Ada Lovelace' })));
    cases.forEach(({ label }, i) => rendered.set(label, pages[i]!));
  }, 60_000);

  it('measures ink: a page with one line is nearly empty, a full page is full', async () => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 56 });
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    const ended = new Promise((resolve) => doc.on('end', resolve));
    doc.text('One stray line.');
    doc.addPage().text('A full page of words. '.repeat(400), { height: doc.page.height - 2 * 56, ellipsis: true });
    doc.end();
    await ended;
    const { pages } = await render(Buffer.concat(chunks));
    expect(pages).toHaveLength(2);
    expect(pages[0]!.depth).toBeLessThan(0.15);
    expect(pages[1]!.depth).toBeGreaterThan(0.85);
    expect(pages[1]!.inkedRows).toBeGreaterThan(0.5);
  });

  it.each(cases.map(({ label }) => [label]))('%s: pages filled, no near-empty last page, no stranded section title', (label) => {
    const { pages, texts } = rendered.get(label)!;
    expect(pages.length, label).toBeGreaterThan(0);
    pages.slice(0, -1).forEach((page, n) => {
      expect(page.depth, `${label}: how far down page ${n + 1} of ${pages.length} the content reaches`).toBeGreaterThanOrEqual(0.4);
      const lastLine = texts[n]!.trim().split('\n').at(-1)!;
      expect(SECTION_TITLES, `${label}: page ${n + 1} ends on the section title "${lastLine}"`).not.toContain(squeezed(lastLine));
    });
    // the last page may be short, but not a stray line or the footnote alone
    const last = pages.at(-1)!;
    expect(last.depth, `${label}: how far down the last page (${pages.length}) the content reaches`).toBeGreaterThan(0.15);
    expect(last.inkedRows, `${label}: share of inked rows on the last page (${pages.length})`).toBeGreaterThan(0.08);
  });
});
