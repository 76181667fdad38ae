import type { Result } from 'lighthouse';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** A script request of the run, from Lighthouse's network-requests audit. */
export interface ScriptRequest {
  url: string;
  /** When the renderer asked for it, in ms from the navigation's start. */
  requestedAtMs: number;
  /** Bytes on the wire (headers included), as Lighthouse measured them. */
  transferBytes: number;
  /** The decoded body's bytes. */
  resourceBytes: number;
}

/** What the benchmark reads from one Lighthouse report. */
export interface PageFigures {
  /** 0-100, null when Lighthouse could not score the category. */
  scores: Record<Category, number | null>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** The load event, in ms from the navigation's start (as observed, not simulated). */
  loadEventMs: number;
  /** Scripts requested before the load event. */
  firstLoadScripts: ScriptRequest[];
  /** Every script requested during the run. */
  allScripts: ScriptRequest[];
  /** The audits of the accessibility, best-practices and SEO categories that did not pass. */
  failedAudits: Array<{ category: Category; id: string; title: string }>;
}

interface NetworkRequestItem {
  url: string;
  resourceType?: string;
  rendererStartTime?: number;
  transferSize?: number;
  resourceSize?: number;
}

function numericValue(lhr: Result, audit: string): number {
  const value = lhr.audits[audit]?.numericValue;
  if (typeof value !== 'number') throw new Error(`Lighthouse report has no numeric value for '${audit}'`);
  return value;
}

/**
 * The figures of one report. Network-requests times count from the first request's renderer start
 * (its debugData.networkStartTimeTs, in µs of the trace clock); the metrics audit gives the load
 * event on the same clock (observedLoadTs) and the navigation's start (observedNavigationStartTs),
 * so both are put on the navigation's clock before they are compared.
 */
export function pageFigures(lhr: Result): PageFigures {
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, typeof score === 'number' ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;

  const metricsDetails = lhr.audits.metrics?.details as { items?: Array<Record<string, number | undefined>> } | undefined;
  const observed = metricsDetails?.items?.[0];
  const navigationStartTs = observed?.observedNavigationStartTs ?? observed?.observedTimeOriginTs;
  const loadTs = observed?.observedLoadTs;
  if (navigationStartTs === undefined || loadTs === undefined) throw new Error('Lighthouse report has no observed load event');

  const network = lhr.audits['network-requests']?.details as
    { items?: NetworkRequestItem[]; debugData?: { networkStartTimeTs?: number } } | undefined;
  const networkStartTs = network?.debugData?.networkStartTimeTs;
  if (!network?.items || networkStartTs === undefined) throw new Error('Lighthouse report has no network requests');
  const allScripts: ScriptRequest[] = network.items
    .filter((item) => item.resourceType === 'Script')
    .map((item) => ({
      url: item.url,
      requestedAtMs: (networkStartTs + (item.rendererStartTime ?? 0) * 1000 - navigationStartTs) / 1000,
      transferBytes: item.transferSize ?? 0,
      resourceBytes: item.resourceSize ?? 0,
    }));
  const loadEventMs = (loadTs - navigationStartTs) / 1000;

  const failedAudits: PageFigures['failedAudits'] = [];
  for (const category of CATEGORIES) {
    if (category === 'performance') continue;
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && typeof audit.score === 'number' && audit.score < 1)
        failedAudits.push({ category, id: ref.id, title: audit.title });
    }
  }

  return {
    scores,
    lcpMs: numericValue(lhr, 'largest-contentful-paint'),
    fcpMs: numericValue(lhr, 'first-contentful-paint'),
    tbtMs: numericValue(lhr, 'total-blocking-time'),
    cls: numericValue(lhr, 'cumulative-layout-shift'),
    speedIndexMs: numericValue(lhr, 'speed-index'),
    loadEventMs,
    firstLoadScripts: allScripts.filter((script) => script.requestedAtMs < loadEventMs),
    allScripts,
    failedAudits,
  };
}

/** The run whose performance score is the median (the lower of the middle two, then the slower LCP first). */
export function medianRun<T extends { figures: PageFigures }>(runs: T[]): T {
  const sorted = [...runs].sort(
    (a, b) => (a.figures.scores.performance ?? -1) - (b.figures.scores.performance ?? -1) || b.figures.lcpMs - a.figures.lcpMs,
  );
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
