import '../lib/zod-jitless.js';
import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { routes } from './routes.js';

/**
 * Loads the code of the lazily loaded routes this address matches, so the router's first render is
 * the page itself, as the server rendered it, and not its loading placeholder.
 */
async function loadMatchedRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = (await route.lazy()) as Partial<RouteObject>;
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

/** Calls `done` once the first render is committed (effects run after the commit). */
function Committed({ done }: { done: () => void }) {
  useEffect(done, [done]);
  return null;
}

/**
 * Runs the site in `container`: hydrates a page the server rendered, or renders into the empty
 * shell. Resolves once the page is live (its event handlers attached).
 */
export async function startApp(container: HTMLElement): Promise<void> {
  const rendered = container.hasChildNodes();
  if (rendered) await loadMatchedRoutes();
  await new Promise<void>((resolve) => {
    const app = (
      <StrictMode>
        <RouterProvider router={createBrowserRouter(routes)} />
        <Committed done={resolve} />
      </StrictMode>
    );
    if (rendered) hydrateRoot(container, app);
    else createRoot(container).render(app);
  });
}
