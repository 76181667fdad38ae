import type { z } from 'zod';
import {
  EXPECTED_VERSION_HEADER,
  flowConflictResponseSchema,
  flowSnapshotResponseSchema,
  type FlowSnapshotResponse,
  type flowStartBodySchema,
} from '#machines/protocol/api.js';
import { siteSettingsFrom, type SiteSettings } from '#machines/site-settings.js';
import { ApiError, errorOf, request, UNREADABLE_ANSWER_STATUS, type ApiOptions } from '../api.js';

/** What the browser sends to start a flow (defaults filled in by the server). */
export type FlowStartInput = z.input<typeof flowStartBodySchema>;

/** A flow as the server answers it: persisted snapshot, dotted state path and version. */
export type ServerFlow = FlowSnapshotResponse;

/** An event for a flow, as posted to /api/flows/:id/events. */
interface FlowEventObject {
  type: string;
  [key: string]: unknown;
}

/** The outcome of posting one event: applied (the new flow) or refused with the flow as it is. */
type SendOutcome = { status: 'applied'; flow: ServerFlow } | { status: 'conflict'; flow: ServerFlow; message: string };

/** GET /api/config: the deployment's settings and the coach's site settings. */
export interface PublicConfig extends SiteSettings {
  paymentMode: 'stripe' | 'test';
  depositCents: number;
  mirrorEngine: 'llm' | 'built-in';
  /** The scheduling page the coach set in the admin's Integrations, or null. */
  bookingUrl: string | null;
}

export interface FlowClientOptions {
  /** Prefix of every path: '' in the browser (same origin), http://host:port in tests. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** The flow API of server/routes/flows.ts (and the calls the modal needs beside it), zod-checked. */
export interface FlowClient {
  start(body: FlowStartInput): Promise<ServerFlow>;
  get(flowId: string): Promise<ServerFlow>;
  send(flowId: string, event: FlowEventObject, expectedVersion?: number): Promise<SendOutcome>;
  config(): Promise<PublicConfig>;
  /**
   * Testing mode: deletes test-tagged leads of the last 7 days. The server allows it to a signed-in
   * admin (pass the session's CSRF token) or on this machine outside production.
   */
  purgeTestLeads(csrfToken?: string | null): Promise<number>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** A flow answer of the server, checked with the shared protocol schema. */
export function parseFlow(json: unknown): ServerFlow {
  const parsed = flowSnapshotResponseSchema.safeParse(json);
  // a 2xx we cannot read is the server's fault, and as such worth a retry
  if (!parsed.success) throw new ApiError(UNREADABLE_ANSWER_STATUS, 'The server answered with a flow this page cannot read.');
  return parsed.data;
}

/** A fetch-based FlowClient. Every flow answer is parsed with the shared protocol schemas. */
export function createFlowClient(options: FlowClientOptions = {}): FlowClient {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const call = (method: NonNullable<ApiOptions['method']>, path: string, body?: unknown, extra: Omit<ApiOptions, 'method' | 'body'> = {}) =>
    request(`${base}${path}`, { method, body, ...extra }, doFetch).then(({ status, data }) => ({ status, json: data }));

  async function flowCall(method: NonNullable<ApiOptions['method']>, path: string, body?: unknown): Promise<ServerFlow> {
    const { status, json } = await call(method, path, body);
    if (status < 200 || status >= 300) throw errorOf(status, json);
    return parseFlow(json);
  }

  return {
    start: (body) => flowCall('POST', '/api/flows', body),
    get: (flowId) => flowCall('GET', `/api/flows/${encodeURIComponent(flowId)}`),
    async send(flowId, event, expectedVersion) {
      const body = expectedVersion === undefined ? { event } : { event, expectedVersion };
      // the version in a header too: a proxy may then resend the event if its server dies mid-way,
      // a replay of one that landed being answered 409 with the flow, which the session adopts
      const headers = expectedVersion === undefined ? undefined : { [EXPECTED_VERSION_HEADER]: String(expectedVersion) };
      const { status, json } = await call('POST', `/api/flows/${encodeURIComponent(flowId)}/events`, body, { headers });
      if (status === 409) {
        const conflict = flowConflictResponseSchema.safeParse(json);
        if (conflict.success) return { status: 'conflict', flow: conflict.data.flow, message: conflict.data.message };
      }
      if (status < 200 || status >= 300) throw errorOf(status, json);
      return { status: 'applied', flow: parseFlow(json) };
    },
    async config() {
      const { status, json } = await call('GET', '/api/config');
      if (status !== 200 || !isObject(json)) throw errorOf(status, json);
      return {
        paymentMode: json.paymentMode === 'stripe' ? 'stripe' : 'test',
        depositCents: typeof json.depositCents === 'number' ? json.depositCents : 25_000,
        mirrorEngine: json.mirrorEngine === 'llm' ? 'llm' : 'built-in',
        bookingUrl: typeof json.bookingUrl === 'string' ? json.bookingUrl : null,
        ...siteSettingsFrom(json),
      };
    },
    async purgeTestLeads(csrfToken) {
      const { status, json } = await call('DELETE', '/api/leads/test-leads', undefined, { csrfToken });
      if (status !== 200 || !isObject(json) || typeof json.deleted !== 'number') throw errorOf(status, json);
      return json.deleted;
    },
  };
}
