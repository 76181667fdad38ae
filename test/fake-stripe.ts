import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received, as the tests assert on it. */
interface FakeStripeRequest {
  method: string;
  path: string;
  /** The form body with Stripe's bracket notation unfolded: metadata[flowId] -> { metadata: { flowId } }. */
  form: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

/** A Stripe-style error the next call to `path` answers with. */
interface PlannedFailure {
  status: number;
  type: string;
  message: string;
}

/** A checkout session as the fake answered it (Stripe's fields, loosely typed). */
export type FakeCheckoutSession = Record<string, unknown> & { id: string };

export interface FakeStripe {
  /** Base URL to put in STRIPE_API_URL. */
  url: string;
  requests: FakeStripeRequest[];
  /** Checkout sessions created, by id, as they were answered. */
  sessions: Map<string, FakeCheckoutSession>;
  /** Makes the next request to `path` fail as Stripe would (use a 4xx: stripe-node retries 5xx). */
  failNext(path: string, failure: PlannedFailure): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Unfolds a form body in Stripe's encoding (a[b][0][c]=v) into nested objects and arrays. */
function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) {
        node[segment] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1]!);
      node[segment] ??= nextIsIndex ? [] : {};
      node = node[segment] as Record<string, unknown>;
    });
  }
  return root;
}

interface LineItem {
  quantity?: string;
  price_data?: { currency?: string; unit_amount?: string };
}

function checkoutSession(form: Record<string, unknown>): FakeCheckoutSession {
  const sessionId = id('cs_test');
  const items = (form.line_items as LineItem[] | undefined) ?? [];
  const total = items.reduce((sum, item) => sum + Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1), 0);
  return {
    id: sessionId,
    object: 'checkout.session',
    amount_subtotal: total,
    amount_total: total,
    cancel_url: form.cancel_url ?? null,
    client_reference_id: null,
    created: now(),
    currency: items[0]?.price_data?.currency ?? null,
    customer: null,
    customer_email: form.customer_email ?? null,
    expires_at: now() + 24 * 3600,
    livemode: false,
    metadata: form.metadata ?? {},
    mode: form.mode ?? 'payment',
    payment_intent: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    success_url: form.success_url ?? null,
    url: `https://checkout.stripe.com/c/pay/${sessionId}`,
  };
}

function refund(form: Record<string, unknown>): Record<string, unknown> {
  return {
    id: id('re'),
    object: 'refund',
    // the fake knows no charges: a full refund of the deposit unless an amount is asked for
    amount: Number(form.amount ?? 25000),
    charge: id('ch'),
    created: now(),
    currency: 'usd',
    metadata: form.metadata ?? {},
    payment_intent: form.payment_intent ?? null,
    reason: form.reason ?? null,
    status: 'succeeded',
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A loopback stand-in for api.stripe.com speaking its wire format for the calls the server makes:
 * POST /v1/checkout/sessions and POST /v1/refunds. Like Stripe, a repeated idempotency key on the
 * same path replays the first answer.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const failures = new Map<string, PlannedFailure>();
  const replays = new Map<string, Record<string, unknown>>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const method = request.method ?? 'GET';
    const form = parseStripeForm(await readBody(request));
    const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
    requests.push({ method, path, form, idempotencyKey });

    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      return sendJson(response, failure.status, { error: { type: failure.type, message: failure.message } });
    }
    const replayKey = idempotencyKey && `${method} ${path} ${idempotencyKey}`;
    const replay = replayKey && replays.get(replayKey);
    if (replay) return sendJson(response, 200, replay);

    let answer: Record<string, unknown>;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session = checkoutSession(form);
      sessions.set(session.id, session);
      answer = session;
    } else if (method === 'POST' && path === '/v1/refunds') {
      answer = refund(form);
    } else {
      return sendJson(response, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
      });
    }
    if (replayKey) replays.set(replayKey, answer);
    return sendJson(response, 200, answer);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // a fault of the fake itself (an unreadable body): a 500 naming it
      const message = `fake Stripe failed: ${error instanceof Error ? error.message : 'unknown error'}`;
      sendJson(response, 500, { error: { type: 'api_error', message } });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    failNext: (path, failure) => failures.set(path, failure),
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // the Stripe client keeps its sockets alive
        server.closeAllConnections();
      }),
  };
}
