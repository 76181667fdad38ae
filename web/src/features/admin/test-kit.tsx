import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import type { z } from 'zod';
import type { leadFactsSchema } from '#machines/protocol/admin/lead-facts.js';
import type { leadDetailSchema } from '#machines/protocol/admin/leads.js';
import { ToastProvider } from '#web/components/ui/index.js';

/*
 * Admin screens under test: the network mocked at fetch with real JSON bodies, the app's router
 * and toast provider around them, a signed-in admin whose CSRF token the calls must carry.
 */

export const CSRF = 'csrf-under-test';

/** A request the screen made: method, path with its query, headers and JSON body. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer to give: a status and a body (sent as JSON unless it is a string). */
export interface Answer {
  status?: number;
  body?: unknown;
}

type Responder = (request: SeenRequest) => Answer | undefined;

const SESSION = {
  user: { id: '00000000-0000-4000-8000-000000000001', email: 'coach@example.com', role: 'admin', mustChangePassword: false },
  csrfToken: CSRF,
};

/** A socket that never opens: the live screens fall back to polling, which tests do not wait for. */
class ClosedSocket {
  static readonly OPEN = 1;
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  send() {}
  close() {}
}

/**
 * Answers fetch with the first responder that takes the request (the session is answered for
 * them); an unanswered request fails the test loudly. Returns the requests seen, in order.
 */
export function mockAdminApi(...responders: Responder[]): SeenRequest[] {
  const seen: SeenRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const request: SeenRequest = {
        method: init.method ?? 'GET',
        url: input,
        headers: (init.headers ?? {}) as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      if (request.url === '/api/auth/session') return Promise.resolve(json({ body: SESSION }));
      seen.push(request);
      for (const responder of responders) {
        const answer = responder(request);
        if (answer) return Promise.resolve(json(answer));
      }
      return Promise.reject(new Error(`no answer mocked for ${request.method} ${request.url}`));
    }),
  );
  return seen;
}

/** A responder for one method and path (the query is ignored unless the path has one). */
export function on(method: string, path: string, answer: Answer | ((request: SeenRequest) => Answer)): Responder {
  return (request) => {
    const url = path.includes('?') ? request.url : request.url.split('?')[0];
    if (request.method !== method || url !== path) return undefined;
    return typeof answer === 'function' ? answer(request) : answer;
  };
}

function json({ status = 200, body }: Answer): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Renders a screen at `path` (matched by `route`) inside the app's providers. */
export function renderScreen(screen: ReactNode, path: string, route = path.split('?')[0]!) {
  return render(
    <ToastProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={screen} />
          <Route path="/auth" element={<p>Sign-in page</p>} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
}

/** jsdom lays nothing out: the charts keep their starting width. */
class StillResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** Every test file: a fresh fetch and socket, and the rendered screens unmounted after. */
export function installAdminTestKit() {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', ClosedSocket);
    vi.stubGlobal('ResizeObserver', StillResizeObserver);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}

/** The id every fixture row gets, numbered. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A lead's facts as the API answers them: a real lead captured, graded nothing, paid nothing, unless `overrides` says otherwise. */
export function leadFacts(overrides: Partial<z.input<typeof leadFactsSchema>> = {}): z.input<typeof leadFactsSchema> {
  return {
    id: uuid(1),
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    source: 'website',
    tags: [],
    created_at: '2026-01-30T09:00:00.000Z',
    updated_at: '2026-01-30T09:05:00.000Z',
    test: false,
    result_id: null,
    tier: null,
    archetype: null,
    leadership_score: null,
    qualification_score: null,
    fallback: null,
    graded_at: null,
    attempts: 0,
    rushed_attempts: 0,
    diagnostic_done: false,
    survey_done: false,
    deposit: 'none',
    deposit_test_mode: null,
    deposit_cents: null,
    deposit_paid_at: null,
    deposit_refunded_at: null,
    homework_paid: false,
    revenue_cents: 0,
    booking: 'none',
    session_starts_at: null,
    session_provider: null,
    session_canceled: false,
    session_canceled_by: null,
    session_changed_at: null,
    reminded_to_book: false,
    ...overrides,
  };
}

/** A lead's page as the API answers it: `lead` as its facts, nothing else recorded unless `overrides` says so. */
export function leadDetail(
  lead: z.input<typeof leadFactsSchema>,
  overrides: Partial<z.input<typeof leadDetailSchema>> = {},
): z.input<typeof leadDetailSchema> {
  return {
    lead,
    result: null,
    results: [],
    diagnostics: [],
    surveys: [],
    mirrorSessions: [],
    payments: [],
    emails: [],
    jobs: [],
    notes: [],
    flows: [],
    captureAttempts: [],
    ...overrides,
  };
}
