import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkCause } from './network-cause.js';
import { postWebhook } from './outbound.js';

/*
 * Each failure is a real one, made on loopback (the policy lists 127.0.0.1 so the filtering agent
 * lets the connection through) or with a name under .invalid, which never resolves.
 */
const loopback = { allowedPrivate: ['127.0.0.1'] };

let plainHttp: Server;
let silent: Server;
let closedPort: number;

const portOf = (server: Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  plainHttp = createServer((_request, response) => response.end('ok'));
  // takes the request and never answers
  silent = createServer(() => undefined);
  const spare = createServer();
  for (const server of [plainHttp, silent, spare]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = portOf(spare);
  await new Promise<void>((resolve) => spare.close(() => resolve()));
});

afterAll(async () => {
  silent.closeAllConnections();
  for (const server of [plainHttp, silent]) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function failureOf(url: string, timeoutMs = 5_000): Promise<unknown> {
  return postWebhook(url, { 'content-type': 'application/json' }, '{}', loopback, timeoutMs).then(
    (status) => new Error(`expected a failure, got ${status}`),
    (error: unknown) => error,
  );
}

describe('why a delivery failed, as the admin reads it', () => {
  it('names DNS, a refused connection, TLS and a timeout, each with its code, and never the address', async () => {
    const causes = {
      dns: networkCause(await failureOf('http://no-such-host.invalid/hook?token=secret')),
      refused: networkCause(await failureOf(`http://127.0.0.1:${closedPort}/hook?token=secret`)),
      tls: networkCause(await failureOf(`https://127.0.0.1:${portOf(plainHttp)}/hook?token=secret`)),
      timeout: networkCause(await failureOf(`http://127.0.0.1:${portOf(silent)}/hook?token=secret`, 300)),
    };
    expect(causes).toEqual({
      dns: expect.stringMatching(/^DNS: .* \((ENOTFOUND|EAI_AGAIN)\)$/),
      refused: 'connection refused: nothing listens at that address and port (ECONNREFUSED)',
      tls: expect.stringMatching(/^TLS: the secure connection failed \(\w+\)$/),
      timeout: 'timeout: no answer in time',
    });
    expect(JSON.stringify(causes)).not.toMatch(/secret|127\.0\.0\.1|invalid/);
  });

  it("says what an SMTP server answered, and nothing for an error that is not the network's", () => {
    expect(networkCause(Object.assign(new Error('Mailbox unavailable'), { code: 'EENVELOPE', responseCode: 550 }))).toBe(
      'the server answered 550',
    );
    expect(networkCause(Object.assign(new Error('Invalid login'), { code: 'EAUTH' }))).toBe('the server refused the login (EAUTH)');
    expect(networkCause(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }))).toBe(
      'connection reset by the other side (ECONNRESET)',
    );
    expect(networkCause(new Error('a bug of ours'))).toBeNull();
    expect(networkCause('not an error')).toBeNull();
  });
});
