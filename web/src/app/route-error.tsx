import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/**
 * Shown when a page fails to load or render, e.g. a page's code cannot be fetched after a new
 * release replaced it: offering a reload fixes that case.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 bg-paper px-6 text-center text-ink">
      <title>Something went wrong | Leadership Coaching</title>
      <h1 className="font-serif text-4xl">Something went wrong</h1>
      <p className="max-w-md text-lg text-muted">
        This page did not load properly. Reloading usually fixes it{detail ? ` (${detail})` : ''}.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="min-h-11 rounded-full bg-ink px-6 font-semibold text-white hover:bg-ink-800"
        >
          Reload the page
        </button>
        <a href="/" className="inline-flex min-h-11 items-center rounded-full border border-ink/25 px-6 font-semibold hover:border-ink/50">
          Back to Home
        </a>
      </div>
    </div>
  );
}
