import type { z } from 'zod';

/** Status 0: the request never got an answer (offline, server down). */
export const NETWORK_ERROR_STATUS = 0;
/** A 2xx whose body does not match the endpoint's schema counts as the server failing. */
export const UNREADABLE_ANSWER_STATUS = 502;

/**
 * A failed API call, the one error type of the browser's API calls: the HTTP status (0 for no
 * answer), the server's message and, for a 400, the offending fields.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
  }

  /** True when retrying later may help: no answer, or the server (or a proxy) failing. */
  get retryable(): boolean {
    return this.status === NETWORK_ERROR_STATUS || this.status === 429 || this.status >= 500;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** The session's CSRF token, for state-changing admin calls. */
  csrfToken?: string | null;
  signal?: AbortSignal;
  /** Sends the request even while the page unloads (sendBeacon-like, for logs). */
  keepalive?: boolean;
  /** Further headers (a flow event's expected version, which lets a proxy resend it). */
  headers?: Record<string, string>;
}

/** An ApiOptions whose answer is checked against the endpoint's shared schema. */
export interface ParsedApiOptions<S extends z.ZodType> extends ApiOptions {
  schema: S;
}

/**
 * Calls a JSON endpoint of this site's API. Resolves with the parsed body (undefined for 204) and
 * throws ApiError for any non-2xx answer or network failure, carrying the server's
 * `{ statusCode, error, message, fields? }` (server/plugins/error-handler.ts). Given a schema,
 * the body is parsed with it (dates decoded) and a body that does not match is an ApiError too.
 */
export async function api<S extends z.ZodType>(path: string, options: ParsedApiOptions<S>): Promise<z.output<S>>;
export async function api<T = unknown>(path: string, options?: ApiOptions): Promise<T>;
export async function api(path: string, options: ApiOptions & { schema?: z.ZodType } = {}): Promise<unknown> {
  const { status, data } = await request(path, options);
  if (status === 204) return undefined;
  if (status < 200 || status >= 300) throw errorOf(status, data);
  if (!options.schema) return data;
  const parsed = options.schema.safeParse(data);
  if (!parsed.success) throw new ApiError(UNREADABLE_ANSWER_STATUS, 'The server answered with data this page cannot read.');
  return parsed.data;
}

/**
 * Sends one request and reads its JSON body (undefined when empty or not JSON), whatever the
 * status; only a request that got no answer throws (ApiError with status 0; an abort stays an
 * AbortError). `fetchImpl` lets a client in Node tests call another origin.
 */
export async function request(
  url: string,
  options: ApiOptions = {},
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<{ status: number; data: unknown }> {
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  // Fastify refuses an empty body labelled as JSON, so the header goes only with a body
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.csrfToken) headers['x-csrf-token'] = options.csrfToken;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(NETWORK_ERROR_STATUS, 'The server could not be reached. Please check your connection and try again.');
  }
  const text = await response.text().catch(() => '');
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  return { status: response.status, data };
}

/** The ApiError for a non-2xx answer, from the server's `{ statusCode, error, message, fields? }`. */
export function errorOf(status: number, data: unknown): ApiError {
  const body = (data ?? {}) as { message?: unknown; fields?: unknown };
  const message = typeof body.message === 'string' ? body.message : `Request failed (${status})`;
  const fields = body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string>) : {};
  return new ApiError(status, message, fields);
}

/** POSTs JSON; shorthand for api(path, { method: 'POST', body }). */
export function post<T = unknown>(path: string, body?: unknown, options: Omit<ApiOptions, 'method' | 'body'> = {}): Promise<T> {
  return api<T>(path, { ...options, method: 'POST', body });
}
