import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicSettings } from '#core/site/public-settings.js';
import type { ContactFormOutcome } from '#machines/protocol/contact-form.js';
import { PRERENDERED_PAGES, type PrerenderedPage } from '#machines/protocol/pages.js';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from '#machines/site-settings.js';
import { encodeText, type EncodedText } from './encoded-text.js';

/** What the build left in place of the site's address in the rendered pages (web/src/app/page-meta.ts). */
const PUBLIC_URL_PLACEHOLDER = /%HF_PUBLIC_URL%/g;

/**
 * A public page's HTML, compressed once: as every visitor gets it, and as whoever may be signed in
 * gets it (the site's code starts at once, so the bar shows their account), made when first asked for.
 */
export interface RenderedPage {
  readonly forVisitors: EncodedText;
  forSignedIn(): Promise<EncodedText>;
}

/** The public pages as the server draws them. */
export interface RenderedPages {
  /** A public page (null: the not-found page), or undefined when the shell must serve. */
  page(page: PrerenderedPage | null): Promise<RenderedPage | undefined>;
  /**
   * The contact page drawn with the outcome of a form posted without JavaScript: drawn for each
   * answer and never kept (it carries one person's message); undefined when it cannot be drawn.
   */
  contactPage(outcome: ContactFormOutcome): Promise<string | undefined>;
}

/** A page as whoever may be signed in gets it: marked for the site's code to start at once. */
function signedIn(html: string): string {
  return html.replace('<div id="root">', '<div id="root" data-start="now">');
}

/** One page to draw: which, with what settings, and for the contact page a form's outcome. */
interface PageToDraw {
  page: PrerenderedPage | null;
  settings: SiteSettings;
  outcome?: ContactFormOutcome;
}

/**
 * The child's script: reads the renderer's address, the shell and the pages to draw as JSON on
 * stdin, and writes the pages' HTML, in order, as JSON on stdout.
 */
const DRAW_PAGES = `
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { renderer, shell, pages } = JSON.parse(input);
const { renderPage } = await import(renderer);
const drawn = [];
for (const { page, settings, outcome } of pages) drawn.push(await renderPage(shell, page, settings, outcome));
process.stdout.write(JSON.stringify(drawn));
`;

/**
 * Draws pages with the site's server renderer in a child process, which exits once they are drawn:
 * the renderer (React's server renderer and the site's components, about 20 MB resident) is loaded
 * only while pages are drawn, which is when the settings change, instead of for the server's whole
 * life (decision 0056). The pages served are kept by the server, so no request waits for a child
 * but the first after a change.
 */
function drawApart(renderer: string, shell: string, pages: PageToDraw[]): Promise<string[]> {
  // one child at a time per server: a flood of no-JS contact posts queues here instead of forking
  // a process each
  const drawn = drawing.then(() => drawInChild(renderer, shell, pages));
  drawing = drawn.catch(() => undefined);
  return drawn;
}

let drawing: Promise<unknown> = Promise.resolve();

function drawInChild(renderer: string, shell: string, pages: PageToDraw[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', DRAW_PAGES], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // a renderer that hangs fails its draw (the last pages keep serving) instead of the queue
      timeout: 60_000,
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`the page renderer exited with ${code}: ${errors.trim().slice(-2000)}`));
      try {
        resolve(JSON.parse(output) as string[]);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(JSON.stringify({ renderer, shell, pages }));
  });
}

/** The first call's promise, kept for the calls after it. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * The public pages as whole documents, drawn with the coach's site settings: rendered again, all
 * of them, the first time a page is asked for after the settings changed (in any process: a change
 * is announced to every server, core/site/public-settings.ts), and kept in memory until then. When the
 * database cannot answer, the pages last rendered (or, before any, the defaults) serve, so an
 * outage never takes the marketing site down. Null for a build without a renderer (the shell serves).
 */
export function renderedPages(options: {
  root: string;
  publicUrl: string;
  settings: PublicSettings;
  log: FastifyBaseLogger;
}): RenderedPages | null {
  const file = path.join(`${options.root}-ssr`, 'entry-server.mjs');
  if (!existsSync(file)) return null;
  const renderer = pathToFileURL(file).href;
  const shell = readFileSync(path.join(options.root, 'index.html'), 'utf8');
  const draw = async (pages: PageToDraw[]) =>
    (await drawApart(renderer, shell, pages)).map((html) => html.replace(PUBLIC_URL_PLACEHOLDER, options.publicUrl));

  const renderAll = async (settings: SiteSettings) => {
    const names = [...PRERENDERED_PAGES, null];
    const drawn = await draw(names.map((page) => ({ page, settings })));
    // compressed in zlib's thread pool, all at once
    const pages = await Promise.all(
      drawn.map(async (html) => ({ forVisitors: await encodeText(html), forSignedIn: once(() => encodeText(signedIn(html))) })),
    );
    return new Map<PrerenderedPage | null, RenderedPage>(names.map((page, index) => [page, pages[index]!]));
  };

  // the settings the kept pages were drawn with (the object and its JSON), and the pages
  let kept: { settings: SiteSettings; key: string; pages: Promise<Map<PrerenderedPage | null, RenderedPage>> } | null = null;
  const pagesFor = (settings: SiteSettings) => {
    // the very object PublicSettings keeps between changes: nothing to compare
    if (kept?.settings === settings) return kept.pages;
    const key = JSON.stringify(settings);
    if (kept?.key === key) {
      // read again (a change elsewhere, a reconnect) but drawn the same: the pages stand
      kept.settings = settings;
      return kept.pages;
    }
    const pages = renderAll(settings);
    kept = { settings, key, pages };
    // a render that fails is tried again at the next request
    pages.catch(() => kept?.pages === pages && (kept = null));
    return pages;
  };

  /** The settings in force, or when the database cannot answer the ones last drawn with. */
  const currentSettings = async (): Promise<SiteSettings> => {
    try {
      return (await options.settings.read()).site;
    } catch (error) {
      options.log.warn({ err: error }, 'site settings unreadable: serving the pages last rendered');
      return kept?.settings ?? DEFAULT_SITE_SETTINGS;
    }
  };

  return {
    async page(page) {
      const settings = await currentSettings();
      try {
        return (await pagesFor(settings)).get(page);
      } catch (error) {
        options.log.error({ err: error }, 'a public page could not be rendered: serving the shell');
        return undefined;
      }
    },
    async contactPage(outcome) {
      const settings = await currentSettings();
      try {
        return (await draw([{ page: '/contact', settings, outcome }]))[0];
      } catch (error) {
        options.log.error({ err: error }, 'the contact page could not be drawn with an outcome');
        return undefined;
      }
    },
  };
}
