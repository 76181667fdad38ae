/*
 * Where a sign-in returns to: the admin page that sent the visitor to /auth, carried in `?next=`.
 * Only a same-site path under /admin is followed (never another origin, a protocol-relative `//host`
 * or a backslash a browser would read as one), so the parameter cannot be used as an open redirect.
 */

/** Where a sign-in lands when nothing (or nothing acceptable) asked for another admin page. */
const ADMIN_HOME = '/admin';

const UNDER_ADMIN = /^\/admin(?:[/?#]|$)/;

/** `next` if it is a same-site path under /admin, else /admin. */
export function adminReturnPath(next: string | null | undefined): string {
  if (!next || !UNDER_ADMIN.test(next) || /[\\\s]/.test(next) || next.includes('//')) return ADMIN_HOME;
  // resolving against a fixed origin drops dot segments (/admin/../x) and proves the origin is unchanged
  const resolved = new URL(next, 'https://site.invalid');
  if (resolved.origin !== 'https://site.invalid' || !UNDER_ADMIN.test(resolved.pathname + resolved.search)) return ADMIN_HOME;
  return resolved.pathname + resolved.search + resolved.hash;
}

/** The sign-in page's address that returns to `path` afterwards (plain /auth for the admin home). */
export function signInPathFor(path: string): string {
  const back = adminReturnPath(path);
  return back === ADMIN_HOME ? '/auth' : `/auth?next=${encodeURIComponent(back)}`;
}
