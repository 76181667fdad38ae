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
 * The site's routes. The home page ships in the first bundle (it is also /survey);
 * every other page is loaded on demand.
 */
const routes: RouteObject[] = [
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
      lazyPage('payment-success', async () => (await import('../routes/payment-success')).PaymentSuccessPage),
      lazyPage('payment-canceled', async () => (await import('../routes/payment-canceled')).PaymentCanceledPage),
      lazyPage('diagnostic', async () => (await import('../routes/diagnostic')).DiagnosticPage),
      lazyPage('results', async () => (await import('../routes/results')).ResultsPage),
      lazyPage('mirror', async () => (await import('../routes/mirror')).MirrorPage),
      lazyPage('*', async () => (await import('../routes/not-found')).NotFound),
    ],
  },
  // the admin area has its own layout (no public nav) and its code is one lazily loaded chunk
  {
    path: 'admin',
    errorElement: <RouteError />,
    HydrateFallback: PageFallback,
    lazy: async () => ({ Component: (await import('../routes/admin')).AdminLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('../routes/admin')).OverviewScreen }) },
      { path: 'messages', lazy: async () => ({ Component: (await import('../routes/admin')).MessagesScreen }) },
      {
        path: 'mirror-sessions',
        lazy: async () => ({ Component: (await import('../features/admin/mirror-sessions')).MirrorSessionsScreen }),
      },
      { path: 'leads', lazy: async () => ({ Component: (await import('../features/admin/leads')).LeadsScreen }) },
      { path: 'leads/:id', lazy: async () => ({ Component: (await import('../features/admin/leads-detail')).LeadDetailScreen }) },
      { path: 'integrations', lazy: async () => ({ Component: (await import('../features/admin/integrations')).IntegrationsScreen }) },
      { path: 'jobs', lazy: async () => ({ Component: (await import('../features/admin/jobs')).JobsScreen }) },
      { path: 'monitor', lazy: async () => ({ Component: (await import('../features/admin/monitor')).MonitorScreen }) },
      { path: 'machines', lazy: async () => ({ Component: (await import('../features/admin/machines')).MachinesScreen }) },
      { path: 'settings', lazy: async () => ({ Component: (await import('../routes/admin')).SiteSettingsScreen }) },
      { path: '*', lazy: async () => ({ Component: (await import('../routes/admin')).AdminNotFoundScreen }) },
    ],
  },
];

export const router = createBrowserRouter(routes);
