import { networkCause } from './network-cause.js';

/*
 * The email-marketing provider's API: Brevo's v3 contacts API (developers.brevo.com), spoken over
 * plain HTTPS with the `api-key` header. Only the three calls the sync needs: add or update a
 * contact on the coach's list (POST /contacts with updateEnabled, an upsert by email: 201 created,
 * 204 updated), unsubscribe one (PUT /contacts/{email}: blocklisted for email and taken off the
 * list, 204; 404 when Brevo never had it), and read the account (GET /account) to test the key.
 */

/** Brevo's production API; BREVO_API_URL points tests at a loopback fake. */
export const BREVO_API_URL = 'https://api.brevo.com/v3';

/** How long Brevo gets to answer before the attempt counts as failed (and is retried). */
const TIMEOUT_MS = 10_000;

/** The contact attributes a lead is kept with; the coach creates them in Brevo (Contacts → Settings → attributes) as text. */
export interface ContactAttributes {
  TIER: string;
  ARCHETYPE: string;
  SOURCE: string;
}

/** A failed call, in words for the coach's card (never the key); `retryable` for 429, 5xx and network failures. */
export class MarketingApiError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

interface BrevoTarget {
  baseUrl: string;
  apiKey: string;
}

/** The error an answer other than 2xx becomes. Brevo's error body is `{ code, message }`. */
async function failure(response: Response): Promise<MarketingApiError> {
  const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
  const said = typeof body?.message === 'string' ? `: ${body.message.slice(0, 200)}` : '';
  if (response.status === 401) return new MarketingApiError('invalid API key (Brevo answered 401)', false);
  if (response.status === 403) return new MarketingApiError(`the API key may not do this (Brevo answered 403${said})`, false);
  if (response.status === 429) {
    const reset = response.headers.get('x-sib-ratelimit-reset');
    return new MarketingApiError(`rate limited by Brevo (429${reset ? `, resets in ${reset} s` : ''})`, true);
  }
  if (response.status >= 500) return new MarketingApiError(`Brevo answered ${response.status}`, true);
  return new MarketingApiError(`Brevo refused the request (${response.status}${said})`, false);
}

async function call(target: BrevoTarget, method: string, path: string, body?: unknown): Promise<Response> {
  try {
    return await fetch(`${target.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        'api-key': target.apiKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      throw new MarketingApiError(`Brevo did not answer within ${TIMEOUT_MS / 1000} s`, true);
    throw new MarketingApiError(`Brevo could not be reached (${networkCause(error) ?? 'the request failed'})`, true);
  }
}

/** Adds the contact to the list, or updates it there (by email): the same call whatever Brevo already has. */
export async function upsertContact(
  target: BrevoTarget,
  email: string,
  attributes: ContactAttributes,
  listId: number,
): Promise<'created' | 'updated'> {
  const response = await call(target, 'POST', '/contacts', { email, attributes, listIds: [listId], updateEnabled: true });
  if (response.status === 201) return 'created';
  if (response.status === 204 || response.status === 200) return 'updated';
  throw await failure(response);
}

/** Unsubscribes the contact: blocklisted for email campaigns and off the list; nothing to do when Brevo never had it. */
export async function unsubscribeContact(target: BrevoTarget, email: string, listId: number): Promise<'unsubscribed' | 'absent'> {
  const response = await call(target, 'PUT', `/contacts/${encodeURIComponent(email)}?identifierType=email_id`, {
    emailBlacklisted: true,
    unlinkListIds: [listId],
  });
  if (response.status === 204 || response.status === 200) return 'unsubscribed';
  if (response.status === 404) return 'absent';
  throw await failure(response);
}

/** Checks the key: Brevo's account behind it answers. */
export async function checkAccount(target: BrevoTarget): Promise<void> {
  const response = await call(target, 'GET', '/account');
  await response.body?.cancel();
  if (response.status !== 200) throw await failure(response);
}
