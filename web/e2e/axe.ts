import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (WCAG 2.x A/AA rules, 2.2's target size included, and best practices) and returns every violation,
 * whatever its impact (minor and moderate ones included: a page has none of any), each with the
 * selectors of the offending nodes. `exclude` leaves out markup that is not the product's own
 * (bull-board's pages): its findings are then listed by the caller, not hidden. The site's CSP
 * (script-src 'self') refuses an added <script> tag (page.addScriptTag inlines the file), so the
 * source is evaluated through the DevTools protocol, which the CSP does not govern.
 */
export async function axeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // a toast or screen still fading in has the contrast of its current frame: scan what settles
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return page.evaluate(async (exclude) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document | { include: string[][]; exclude: string[][] },
            options: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const context = exclude.length ? { include: [['html']], exclude: exclude.map((selector) => [selector]) } : document;
    // target-size (WCAG 2.2 AA, 24 px targets) is off in axe by default: the site keeps it
    const result = await axe.run(context, { resultTypes: ['violations'], rules: { 'target-size': { enabled: true } } });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, options.exclude ?? []);
}
