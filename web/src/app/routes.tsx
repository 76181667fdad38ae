import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { Home } from '../routes/home.js';
import { RootLayout } from './root-layout.js';
import { RouteError } from './route-error.js';

/** Keeps the page height while a lazily loaded page's code arrives on a first visit. */
function PageFallback() {
  return <div className="min-h-screen" aria-busy="true" />;
}

/** A route whose page is a separate chunk, fetched on first visit. */
function lazyPage(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, HydrateFallback: PageFallback, lazy: async () => ({ Component: await load() }) };
}

/**
 * The site's routes, for the browser (app/start.tsx) and the page renderer
 * (entry-server.tsx). The home page comes with the site's code (it is also /survey); every other
 * page is loaded on demand.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    errorElement: <RouteError />,
    children: [
      { index: true, Component: Home },
      { path: 'survey', Component: Home },
      lazyPage('about', async () => (await import('../routes/about.js')).AboutPage),
      lazyPage('services', async () => (await import('../routes/services.js')).ServicesPage),
      lazyPage('contact', async () => (await import('../routes/contact.js')).ContactPage),
      lazyPage('auth', async () => (await import('../routes/auth.js')).AuthPage),
      lazyPage('payment-success', async () => (await import('../routes/payment-success.js')).PaymentSuccessPage),
      lazyPage('payment-canceled', async () => (await import('../routes/payment-canceled.js')).PaymentCanceledPage),
      lazyPage('diagnostic', async () => (await import('../routes/diagnostic.js')).DiagnosticPage),
      lazyPage('results', async () => (await import('../routes/results.js')).ResultsPage),
      lazyPage('mirror', async () => (await import('../routes/mirror.js')).MirrorPage),
      lazyPage('resume', async () => (await import('../routes/resume.js')).ResumePage),
      lazyPage('confirm', async () => (await import('../routes/confirm.js')).ConfirmPage),
      lazyPage('unsubscribe', async () => (await import('../routes/unsubscribe.js')).UnsubscribePage),
      lazyPage('*', async () => (await import('../routes/not-found.js')).NotFound),
    ],
  },
  // the admin area has its own layout (no public nav) and its code is one lazily loaded chunk
  {
    path: 'admin',
    errorElement: <RouteError />,
    HydrateFallback: PageFallback,
    lazy: async () => ({ Component: (await import('../routes/admin.js')).AdminLayout }),
    children: [
      { index: true, lazy: async () => ({ Component: (await import('../routes/admin.js')).OverviewScreen }) },
      { path: 'messages', lazy: async () => ({ Component: (await import('../routes/admin.js')).MessagesScreen }) },
      {
        path: 'mirror-sessions',
        lazy: async () => ({ Component: (await import('../features/admin/mirror-sessions/mirror-sessions.js')).MirrorSessionsScreen }),
      },
      { path: 'leads', lazy: async () => ({ Component: (await import('../features/admin/leads/leads.js')).LeadsScreen }) },
      { path: 'leads/:id', lazy: async () => ({ Component: (await import('../features/admin/leads/leads-detail.js')).LeadDetailScreen }) },
      {
        path: 'integrations',
        lazy: async () => ({ Component: (await import('../features/admin/integrations/integrations.js')).IntegrationsScreen }),
      },
      { path: 'jobs', lazy: async () => ({ Component: (await import('../features/admin/jobs/jobs.js')).JobsScreen }) },
      { path: 'monitor', lazy: async () => ({ Component: (await import('../features/admin/monitor/monitor.js')).MonitorScreen }) },
      { path: 'machines', lazy: async () => ({ Component: (await import('../features/admin/flow-machines/machines.js')).MachinesScreen }) },
      { path: 'grading', lazy: async () => ({ Component: (await import('../routes/admin.js')).GradingScreen }) },
      { path: 'emails', lazy: async () => ({ Component: (await import('../features/admin/emails/emails.js')).EmailsScreen }) },
      { path: 'settings', lazy: async () => ({ Component: (await import('../routes/admin.js')).SiteSettingsScreen }) },
      { path: '*', lazy: async () => ({ Component: (await import('../routes/admin.js')).AdminNotFoundScreen }) },
    ],
  },
];
