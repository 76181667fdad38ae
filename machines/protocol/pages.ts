import type { SiteSettings } from '../site-settings.js';
import type { ContactFormOutcome } from './contact-form.js';

/**
 * The site's pages, as both the browser's router (web/src/app/routes.tsx)
 * and the server know them: the server answers these with the page and 200 whatever the request's
 * Accept header, and any other path outside the API with the page and 404 (which the router shows as
 * the not-found page), so search engines and uptime checks see real statuses.
 */
const PUBLIC_PAGES = [
  '/',
  '/about',
  '/services',
  '/contact',
  '/auth',
  '/payment-success',
  '/payment-canceled',
  '/diagnostic',
  '/survey',
  '/results',
  '/mirror',
  '/resume',
  '/unsubscribe',
  '/confirm',
] as const;

/**
 * The public pages rendered to HTML (readable before any script runs, and by crawlers and
 * link previews that run none) and the sitemap lists; the not-found page is rendered too.
 */
export const PRERENDERED_PAGES = ['/', '/about', '/services', '/contact', '/payment-success', '/payment-canceled'] as const;
export type PrerenderedPage = (typeof PRERENDERED_PAGES)[number];

/**
 * Rendered pages that are there for a visitor mid-journey, not for search results: marked noindex
 * and left out of the sitemap (a sitemap lists only what should be indexed).
 */
export const UNINDEXED_PAGES: ReadonlySet<PrerenderedPage> = new Set(['/payment-success', '/payment-canceled']);

/**
 * What the build's page renderer (web/src/entry-server.tsx) exports: a page (null: the not-found
 * page) drawn into the built shell with the coach's settings. The build renders each page once with it
 * (web/prerender/plugin.ts) and the server with the settings in force (server/plugins/rendered-pages.ts),
 * and the contact page with the outcome of a form posted without JavaScript (`contact`).
 */
export interface PageRenderer {
  renderPage: (shell: string, page: PrerenderedPage | null, settings: SiteSettings, contact?: ContactFormOutcome) => Promise<string>;
}

export const isPrerenderedPage = (path: string): path is PrerenderedPage => (PRERENDERED_PAGES as readonly string[]).includes(path);

/**
 * Pages opened from an email's link with a token in it (a resume link, an unsubscribe link, any
 * confirmation): one person's, never for search results, so they are served with noindex.
 */
const TOKEN_PAGES = ['/resume', '/unsubscribe', '/confirm'] as const;

/** True for a token page's path (without its query), a trailing slash or a sub-path allowed. */
export function isTokenPage(path: string): boolean {
  return TOKEN_PAGES.some((page) => path === page || path.startsWith(`${page}/`));
}

/** The admin area's screens; a lead's page is /admin/leads/<its id>. */
const ADMIN_PAGES = [
  '/admin',
  '/admin/messages',
  '/admin/leads',
  '/admin/integrations',
  '/admin/jobs',
  '/admin/monitor',
  '/admin/machines',
  '/admin/mirror-sessions',
  '/admin/grading',
  '/admin/emails',
  '/admin/settings',
] as const;

const LEAD_PAGE = /^\/admin\/leads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGES: ReadonlySet<string> = new Set([...PUBLIC_PAGES, ...ADMIN_PAGES]);

/** True for a path (without its query) that is one of the site's pages; a trailing slash is allowed. */
export function isPagePath(path: string): boolean {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return PAGES.has(trimmed) || LEAD_PAGE.test(trimmed);
}
