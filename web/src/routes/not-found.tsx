import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { ButtonLink } from '../components/ui/index.js';
import { post } from '../lib/api.js';

/** Paths already reported from this tab, so a re-render or StrictMode's second effect does not log twice. */
const reported = new Set<string>();

/** Tells the server log which path a visitor could not find. */
function reportMissingPath(path: string) {
  if (reported.has(path)) return;
  reported.add(path);
  post('/api/client-log/not-found', { path: path.slice(0, 2000) }, { keepalive: true }).catch(() => {
    // a lost log line must never bother the visitor
  });
}

/** Any path the site does not know. */
export function NotFound() {
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  // the page the browser loaded ('default', the router's first entry) was logged by the server
  // that answered it with 404; a link inside the site that leads nowhere is reported from here
  const reached = location.key !== 'default';
  useEffect(() => {
    if (reached) reportMissingPath(path);
  }, [path, reached]);

  return (
    <>
      <title>Page not found | Leadership Coaching</title>
      <section
        aria-labelledby="not-found-title"
        className="flex min-h-screen flex-col items-center justify-center bg-sand px-6 pt-28 pb-20 text-center"
      >
        <p className="font-serif text-7xl text-brass-deep sm:text-8xl" aria-hidden="true">
          404
        </p>
        <h1 id="not-found-title" className="mt-4 font-serif text-4xl text-ink sm:text-5xl">
          Oops! Page not found
        </h1>
        <p className="mt-4 max-w-md text-lg leading-relaxed text-muted">
          The page you were looking for has moved or never existed. Everything else is still where you left it.
        </p>
        <ButtonLink to="/" size="lg" className="mt-9">
          Return to Home
        </ButtonLink>
      </section>
    </>
  );
}
