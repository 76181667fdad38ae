import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { z } from 'zod';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components/ui/index.js';
import { ApiError, api } from '../../lib/api.js';
import { signInPathFor } from '../../lib/admin-return-path.js';
import { loadSession } from '../../lib/session.js';

/** The toast for any admin data failure. */
export const ADMIN_ERROR_TITLE = 'Error';
export const ADMIN_ERROR_MESSAGE = 'Failed to fetch admin data. Please check your credentials and try again.';

/**
 * What to do when an admin call fails: a 401 means the session is gone, so the visitor goes to
 * /auth, to come back to this page (and the shared session is re-read so the public bar agrees); anything else shows the
 * spec's 'Error' toast.
 */
export function useAdminFailure() {
  const navigate = useNavigate();
  const { toast } = useToast();
  return useCallback(
    (error: unknown, description: string = ADMIN_ERROR_MESSAGE) => {
      if (error instanceof ApiError && error.status === 401) {
        void loadSession();
        // nothing waits for the navigation: the router shows any failure itself; signing in again comes back here
        void navigate(signInPathFor(window.location.pathname + window.location.search + window.location.hash), { replace: true });
        return;
      }
      toast({ title: ADMIN_ERROR_TITLE, description, variant: 'destructive' });
    },
    [navigate, toast],
  );
}

export interface AdminResource<T> {
  data: T | null;
  /** True while a request is under way (the first load or a refresh). */
  loading: boolean;
  failed: boolean;
  reload: () => void;
  /** Replaces the loaded data locally (optimistic updates). */
  update: (change: (current: T) => T) => void;
}

/**
 * Loads an admin endpoint on mount and on reload(), its answer parsed with the endpoint's shared
 * schema; failures (an answer that does not match included) go through useAdminFailure.
 */
export function useAdminResource<S extends z.ZodType>(path: string, schema: S): AdminResource<z.output<S>> {
  type T = z.output<S>;
  const fail = useAdminFailure();
  const onFailure = useEffectEvent((error: unknown) => fail(error));
  const [data, setData] = useState<T | null>(null);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);
  // the request (path and generation) that last settled: loading until the current one has
  const [settled, setSettled] = useState<{ path: string; generation: number } | null>(null);
  const loading = settled?.path !== path || settled.generation !== generation;

  useEffect(() => {
    const controller = new AbortController();
    api(path, { schema, signal: controller.signal }).then(
      (answer) => {
        setData(answer);
        setFailed(false);
        setSettled({ path, generation });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setSettled({ path, generation });
        onFailure(error);
      },
    );
    return () => controller.abort();
  }, [path, schema, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const update = useCallback((change: (current: T) => T) => setData((current) => (current === null ? current : change(current))), []);
  return { data, loading, failed, reload, update };
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** Takes a decoded Date, or an ISO string from a frame no schema decodes (the monitor's). */
export function formatDate(date: Date | string): string {
  return dateFormat.format(new Date(date));
}

export function formatDateTime(date: Date | string): string {
  return dateTimeFormat.format(new Date(date));
}

/** Message previews are cut at 100 characters, plus an ellipsis. */
const MESSAGE_PREVIEW_LENGTH = 100;

export function preview(message: string): string {
  return message.length > MESSAGE_PREVIEW_LENGTH ? `${message.slice(0, MESSAGE_PREVIEW_LENGTH)}...` : message;
}
