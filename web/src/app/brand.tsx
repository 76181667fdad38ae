import { SITE } from './site.js';

/** The wordmark: a brass compass-like mark and the site name. */
export function BrandMark({ dark = false }: { dark?: boolean }) {
  return (
    <>
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true" focusable="false">
        <circle cx="16" cy="16" r="15" className={dark ? 'fill-white/10' : 'fill-ink'} />
        <path d="M16 6l3.2 10L16 26l-3.2-10L16 6Z" className="fill-brass" />
        <circle cx="16" cy="16" r="2" className={dark ? 'fill-ink' : 'fill-paper'} />
      </svg>
      <span className="leading-none">
        <span className={`block font-serif text-lg tracking-tight ${dark ? 'text-white' : 'text-ink'}`}>{SITE.name}</span>
      </span>
    </>
  );
}
