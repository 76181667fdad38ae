import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/*
 * Brevo's v3 contacts API on loopback, as developers.brevo.com documents it: the `api-key` header
 * (401 `{ code: "unauthorized", message: "Key not found" }` without the right one), POST /v3/contacts
 * (an upsert by email with updateEnabled: 201 `{ id }` when created, 204 when updated; 400
 * duplicate_parameter for a known email without updateEnabled), PUT /v3/contacts/{identifier} with
 * identifierType=email_id (204; 404 document_not_found for an unknown contact), GET /v3/account
 * (200), and 429 with the x-sib-ratelimit-* headers when a test plans one. Errors are `{ code, message }`.
 */

/** A contact as the fake keeps it. */
export interface FakeBrevoContact {
  id: number;
  email: string;
  attributes: Record<string, unknown>;
  listIds: number[];
  emailBlacklisted: boolean;
}

/** One request the fake received. */
interface FakeBrevoRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: unknown;
  status: number;
}

export interface FakeBrevo {
  /** Base URL to put in BREVO_API_URL (ends in /v3, as Brevo's does). */
  url: string;
  requests: FakeBrevoRequest[];
  /** Contacts by lower-cased email. */
  contacts: Map<string, FakeBrevoContact>;
  /** The next requests are answered with these statuses instead (429 with rate-limit headers, 5xx). */
  answerNext(...statuses: number[]): void;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

function parsedOrRaw(raw: string): unknown {
  try {
    return raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    return raw;
  }
}

const isIntList = (value: unknown) => Array.isArray(value) && value.every((entry) => Number.isInteger(entry) && entry > 0);

/** A Brevo API that accepts `apiKey` and knows the lists `lists`; closed when the test ends (or by `close`, outside a test). */
export async function fakeBrevo(apiKey: string, lists: number[] = [7], options: { closeAfterTest?: boolean } = {}): Promise<FakeBrevo> {
  const requests: FakeBrevoRequest[] = [];
  const contacts = new Map<string, FakeBrevoContact>();
  const planned: number[] = [];
  let nextId = 1;

  function handle(request: IncomingMessage, raw: string, response: ServerResponse): number {
    const url = new URL(request.url ?? '/', 'http://fake');
    const planned429 = planned.shift();
    if (planned429 === 429) {
      send(
        response,
        429,
        { code: 'too_many_requests', message: 'Too many requests' },
        {
          'x-sib-ratelimit-limit': '10',
          'x-sib-ratelimit-remaining': '0',
          'x-sib-ratelimit-reset': '1',
        },
      );
      return 429;
    }
    if (planned429 !== undefined) {
      send(response, planned429, { code: 'internal_error', message: 'Internal error' });
      return planned429;
    }
    if (request.headers['api-key'] !== apiKey) {
      send(response, 401, { code: 'unauthorized', message: 'Key not found' });
      return 401;
    }
    let body: Record<string, unknown> = {};
    if (raw) {
      if (request.headers['content-type'] !== 'application/json') {
        send(response, 415, { code: 'invalid_parameter', message: 'Content-Type must be application/json' });
        return 415;
      }
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        send(response, 400, { code: 'bad_request', message: 'Malformed JSON' });
        return 400;
      }
    }
    if (request.method === 'GET' && url.pathname === '/v3/account') {
      send(response, 200, { email: 'coach@example.com', firstName: 'Coach', companyName: 'Coaching', plan: [{ type: 'free' }] });
      return 200;
    }
    if (request.method === 'POST' && url.pathname === '/v3/contacts') {
      const { email, attributes = {}, listIds = [], updateEnabled = false } = body;
      if (typeof email !== 'string' || !email.includes('@') || typeof attributes !== 'object' || !isIntList(listIds)) {
        send(response, 400, { code: 'invalid_parameter', message: 'Invalid email address or parameters' });
        return 400;
      }
      const unknownList = (listIds as number[]).find((list) => !lists.includes(list));
      if (unknownList !== undefined) {
        send(response, 404, { code: 'document_not_found', message: `List ID ${unknownList} does not exist` });
        return 404;
      }
      const known = contacts.get(email.toLowerCase());
      if (known && updateEnabled !== true) {
        send(response, 400, { code: 'duplicate_parameter', message: 'Contact already exist' });
        return 400;
      }
      if (known) {
        Object.assign(known.attributes, attributes);
        known.listIds = [...new Set([...known.listIds, ...(listIds as number[])])];
        send(response, 204);
        return 204;
      }
      const contact = {
        id: nextId++,
        email,
        attributes: { ...(attributes as object) },
        listIds: [...(listIds as number[])],
        emailBlacklisted: false,
      };
      contacts.set(email.toLowerCase(), contact);
      send(response, 201, { id: contact.id });
      return 201;
    }
    const match = /^\/v3\/contacts\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'PUT' && match) {
      const identifier = decodeURIComponent(match[1]!);
      const contact =
        url.searchParams.get('identifierType') === 'email_id' || identifier.includes('@')
          ? contacts.get(identifier.toLowerCase())
          : undefined;
      if (!contact) {
        send(response, 404, { code: 'document_not_found', message: 'Contact does not exist' });
        return 404;
      }
      if (body.emailBlacklisted !== undefined && typeof body.emailBlacklisted !== 'boolean') {
        send(response, 400, { code: 'invalid_parameter', message: 'emailBlacklisted should be a boolean' });
        return 400;
      }
      if (typeof body.emailBlacklisted === 'boolean') contact.emailBlacklisted = body.emailBlacklisted;
      if (isIntList(body.unlinkListIds))
        contact.listIds = contact.listIds.filter((list) => !(body.unlinkListIds as number[]).includes(list));
      if (isIntList(body.listIds)) contact.listIds = [...new Set([...contact.listIds, ...(body.listIds as number[])])];
      if (body.attributes && typeof body.attributes === 'object') Object.assign(contact.attributes, body.attributes);
      send(response, 204);
      return 204;
    }
    send(response, 404, { code: 'document_not_found', message: 'Not found' });
    return 404;
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const status = handle(request, raw, response);
      const url = new URL(request.url ?? '/', 'http://fake');
      requests.push({
        method: request.method ?? '',
        path: url.pathname + url.search,
        apiKey: request.headers['api-key'] as string | undefined,
        body: parsedOrRaw(raw),
        status,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  if (options.closeAfterTest !== false) onTestFinished(close);
  return {
    close,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`,
    requests,
    contacts,
    answerNext: (...statuses) => planned.push(...statuses),
  };
}
