import { useEffect, useSyncExternalStore } from 'react';
import { api, post } from './api.js';

/** The signed-in user as GET /api/auth/session describes them. */
export interface SessionUser {
  id: string;
  email: string;
  role: 'admin';
  /** Signed in with a generated first password: the admin area waits until it is changed. */
  mustChangePassword: boolean;
}

export interface Session {
  /** 'unknown' until the first GET /api/auth/session answers. */
  status: 'unknown' | 'signed-in' | 'signed-out';
  user: SessionUser | null;
  /** Sent as x-csrf-token with state-changing admin calls. */
  csrfToken: string | null;
}

type SessionAnswer = { user: SessionUser; csrfToken: string } | { user: null };

const SIGNED_OUT: Session = { status: 'signed-out', user: null, csrfToken: null };
let current: Session = { status: 'unknown', user: null, csrfToken: null };
let loading: Promise<Session> | null = null;
const listeners = new Set<() => void>();

function set(next: Session) {
  current = next;
  for (const listener of listeners) listener();
}

function fromAnswer(answer: SessionAnswer): Session {
  return answer.user ? { status: 'signed-in', user: answer.user, csrfToken: answer.csrfToken } : SIGNED_OUT;
}

/** Reads the session from the server (one request at a time); a failure counts as signed out. */
export function loadSession(): Promise<Session> {
  loading ??= api<SessionAnswer>('/api/auth/session')
    .then(fromAnswer, () => SIGNED_OUT)
    .then((session) => {
      set(session);
      return session;
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Signs in; resolves with the user, throws ApiError (401 wrong credentials, 400 short password, 429). */
export async function signIn(credentials: { email: string; password: string }): Promise<SessionUser> {
  const answer = await post<{ user: SessionUser; csrfToken: string }>('/api/auth/sign-in', credentials);
  set({ status: 'signed-in', user: answer.user, csrfToken: answer.csrfToken });
  return answer.user;
}

/**
 * Changes the signed-in admin's password; resolves with the user (mustChangePassword now false),
 * throws ApiError (400 with `fields` naming currentPassword or newPassword, 401, 429).
 */
export async function changePassword(passwords: { currentPassword: string; newPassword: string }): Promise<SessionUser> {
  const answer = await post<{ user: SessionUser; csrfToken: string }>('/api/auth/change-password', passwords, {
    csrfToken: current.csrfToken,
  });
  set({ status: 'signed-in', user: answer.user, csrfToken: answer.csrfToken });
  return answer.user;
}

/** Signs out on the server, then locally; throws ApiError when the server could not do it. */
export async function signOut(): Promise<void> {
  await post('/api/auth/sign-out');
  set(SIGNED_OUT);
}

/**
 * A page restored from the back/forward cache (Back after signing out elsewhere) shows what it held
 * when left: forget the session at once, so nothing private renders, and read it again.
 */
if (typeof window !== 'undefined') {
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted || current.status === 'unknown') return;
    set({ status: 'unknown', user: null, csrfToken: null });
    void loadSession();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current session; the first component to ask loads it. */
export function useSession(): Session {
  const session = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
  useEffect(() => {
    if (current.status === 'unknown') void loadSession();
  }, []);
  return session;
}
