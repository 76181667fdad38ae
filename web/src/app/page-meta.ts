import { UNINDEXED_PAGES, type PrerenderedPage } from '#machines/protocol/pages.js';
import type { ItemList, ProfessionalService, Thing, WithContext } from 'schema-dts';
import { isPlatformHomePage, type SiteSettings } from '#machines/site-settings.js';
import { SERVICES } from '../routes/services-data.js';

/*
 * What each public page tells search engines and link previews beside its title (which the page
 * renders itself): its description, its canonical address and preview card, and structured data.
 * Addresses start with PUBLIC_URL_PLACEHOLDER, which the server replaces with PUBLIC_URL when it
 * serves the page (server/plugins/static-site.ts), so one build serves any deployment.
 */

const PUBLIC_URL_PLACEHOLDER = '%HF_PUBLIC_URL%';

/** The preview image every page shares (web/public/og-image.png, 1200x630). */
const PREVIEW_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  alt: 'Leadership Coaching: start with a free leadership diagnostic',
};

const DESCRIPTIONS: Record<PrerenderedPage, string> = {
  '/': 'Leadership coaching for founders, executives and senior managers. Start with a free leadership diagnostic and leave with a clear next step.',
  '/about':
    'Who coaches you and how: a practice built on real decisions, a diagnostic before any advice, and outcomes you agree at the start.',
  '/services':
    '1:1 leadership coaching, team leadership development and focused intensives: what each includes, how long it runs, and where to start.',
  '/contact': 'Ask about coaching for yourself or your leadership team. Send a message and hear back within one working day.',
  '/payment-success': 'Your refundable deposit is received. Book your 45-minute strategy session.',
  '/payment-canceled': 'The checkout was canceled and nothing was charged. Your results and next steps are still here.',
};

/** The not-found page's, for a preview of a broken link. */
const NOT_FOUND_DESCRIPTION =
  'This page does not exist. Start from the home page: take the free leadership diagnostic or explore coaching.';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** JSON for a <script> block: a "</script>" inside a string cannot end it. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The coach's own profiles among the social links: set, and not a platform's home page. */
function ownProfiles(socialLinks: SiteSettings['socialLinks']): string[] {
  return Object.values(socialLinks).filter((link): link is string => link !== null && !isPlatformHomePage(link));
}

/**
 * The page's structured data, typed with schema-dts (schema.org's own vocabulary as TypeScript
 * types), so a property a type does not have fails the typecheck.
 */
function structuredData(page: PrerenderedPage, { contact, socialLinks }: SiteSettings): Array<WithContext<Thing>> {
  const profiles = ownProfiles(socialLinks);
  const url = `${PUBLIC_URL_PLACEHOLDER}${page === '/' ? '/' : page}`;
  const business = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': `${PUBLIC_URL_PLACEHOLDER}/#business`,
    name: contact.name,
    description: DESCRIPTIONS['/'],
    ...(contact.email ? { email: contact.email } : {}),
    ...(contact.phone ? { telephone: contact.phone } : {}),
    ...(contact.location ? { address: contact.location } : {}),
    // the coach's own profiles from the site settings, not a platform's front page (what a fresh install links to)
    ...(profiles.length ? { sameAs: profiles } : {}),
    url: `${PUBLIC_URL_PLACEHOLDER}/`,
    image: `${PUBLIC_URL_PLACEHOLDER}${PREVIEW_IMAGE.path}`,
    // what it offers: ProfessionalService has no serviceType (a Service has), so it is said as a catalogue
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Leadership coaching',
      itemListElement: SERVICES.map((service) => ({ '@type': 'Offer', itemOffered: { '@type': 'Service', name: service.name } })),
    },
  } satisfies WithContext<ProfessionalService>;
  if (page !== '/services') return page === '/' ? [business] : [];
  const list: WithContext<ItemList> = {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    url,
    itemListElement: SERVICES.map((service, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      item: {
        '@type': 'Service',
        name: service.name,
        description: service.description,
        provider: { '@id': business['@id'] },
        serviceType: 'Leadership coaching',
      },
    })),
  };
  return [list];
}

/**
 * The <head> tags of a public page besides its title: description, canonical, Open Graph and
 * Twitter card, robots, structured data (with the coach's contact details and profiles from the
 * site settings). `title` is the one the page rendered.
 */
export function headTags(page: PrerenderedPage | null, title: string, settings: SiteSettings): string {
  if (!page)
    return `<meta name="description" content="${escapeAttribute(NOT_FOUND_DESCRIPTION)}" />\n    <meta name="robots" content="noindex" />`;
  const url = `${PUBLIC_URL_PLACEHOLDER}${page === '/' ? '/' : page}`;
  const description = escapeAttribute(DESCRIPTIONS[page]);
  const image = `${PUBLIC_URL_PLACEHOLDER}${PREVIEW_IMAGE.path}`;
  const tags = [
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${url}" />`,
    UNINDEXED_PAGES.has(page) ? '<meta name="robots" content="noindex" />' : '',
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeAttribute(settings.contact.name)}" />`,
    `<meta property="og:title" content="${escapeAttribute(title)}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:width" content="${PREVIEW_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${PREVIEW_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${escapeAttribute(PREVIEW_IMAGE.alt)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${escapeAttribute(title)}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
    `<meta name="twitter:image:alt" content="${escapeAttribute(PREVIEW_IMAGE.alt)}" />`,
    ...structuredData(page, settings).map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
  ];
  return tags.filter(Boolean).join('\n    ');
}
