import { Link } from 'react-router-dom';
import { BrandMark } from './brand.js';
import { useSiteSettings } from '../lib/site-settings.js';
import { NAV_LINKS, SITE, socialLinksOf } from './site.js';
import { SocialIcon } from './social-icons.js';

/** The footer: the promise, the pages, the coach's social links. */
export function SiteFooter() {
  const socialLinks = socialLinksOf(useSiteSettings().socialLinks);
  return (
    <footer className="border-t border-white/10 bg-ink text-mist">
      <div className="mx-auto grid max-w-6xl gap-12 px-6 pt-16 pb-10 sm:px-8 md:grid-cols-[1.4fr_1fr_1.2fr]">
        <div>
          <Link to="/" className="inline-flex items-center gap-3 rounded-md">
            <BrandMark dark />
          </Link>
          <p className="mt-5 max-w-sm leading-relaxed">
            Coaching for founders, executives and senior managers who want to decide faster, delegate with confidence and build teams that
            trust them.
          </p>
        </div>

        <nav aria-label="Footer">
          <h2 className="text-xs font-semibold tracking-[0.22em] text-brass-light uppercase">Explore</h2>
          <ul className="mt-5 grid grid-cols-2 gap-x-6 gap-y-3 md:grid-cols-1">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="rounded-sm text-white/90 underline-offset-4 hover:text-white hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="text-xs font-semibold tracking-[0.22em] text-brass-light uppercase">Follow along</h2>
          <ul className="mt-5 flex flex-wrap gap-2">
            {socialLinks.map((social) => (
              <li key={social.id}>
                <a
                  href={social.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex size-10 items-center justify-center rounded-full border border-white/15 text-white transition-colors hover:border-brass hover:bg-white/5 hover:text-brass-light"
                >
                  <SocialIcon id={social.id} />
                  <span className="sr-only">{`${social.label} (opens in a new tab)`}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-6xl flex-col gap-3 px-6 py-6 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-8">
          <p>
            © {new Date().getFullYear()} {SITE.name}. All rights reserved.
          </p>
          <Link to="/auth" className="rounded-sm text-mist underline-offset-4 hover:text-white hover:underline">
            Coach sign in
          </Link>
        </div>
      </div>
    </footer>
  );
}
