import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { Home } from '../routes/home';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';

/** Keeps the page height while a lazily loaded page's code arrives on a first visit. */
function PageFallback() {
  return <div className="min-h-screen" aria-busy="true" />;
}

/** A route whose page is a separate chunk, fetched on first visit. */
function lazyPage(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, HydrateFallback: PageFallback, lazy: async () => ({ Component: await load() }) };
}

/**
 * The site's routes (spec section 2). The home page ships in the first bundle (it is also /survey);
 * every other page is loaded on demand.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    errorElement: <RouteError />,
    children: [
      { index: true, Component: Home },
      { path: 'survey', Component: Home },
      lazyPage('about', async () => (await import('../routes/about')).AboutPage),
      lazyPage('services', async () => (await import('../routes/services')).ServicesPage),
      lazyPage('contact', async () => (await import('../routes/contact')).ContactPage),
      lazyPage('auth', async () => (await import('../routes/auth')).AuthPage),
      lazyPage('admin/*', async () => (await import('../routes/admin')).AdminPlaceholder),
      lazyPage('payment-success', async () => (await import('../routes/payment-success')).PaymentSuccessPage),
      lazyPage('payment-canceled', async () => (await import('../routes/payment-canceled')).PaymentCanceledPage),
      lazyPage('*', async () => (await import('../routes/not-found')).NotFound),
    ],
  },
];

export const router = createBrowserRouter(routes);
