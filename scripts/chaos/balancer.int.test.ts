import http from 'node:http';
import type net from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EXPECTED_VERSION_HEADER } from '#machines/protocol/api.js';
import { Balancer } from './balancer.js';

/** A backend on a loopback port: `dies` drops every connection once a request has reached it, as a server SIGKILLed mid-request. */
async function backend(name: string, dies: boolean): Promise<{ port: number; received: string[] }> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      if (dies) request.socket.destroy();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(name);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as net.AddressInfo).port, received };
}

/** The run's balancer over a dying backend and a sound one, the dying one first in turn. */
async function balancerOverADyingBackend() {
  const dying = await backend('dying', true);
  const sound = await backend('sound', false);
  const balancer = new Balancer(() => [dying.port, sound.port]);
  const base = `http://127.0.0.1:${await balancer.listen()}`;
  onTestFinished(() => balancer.close());
  return { base, dying, sound };
}

describe("the fault run's balancer resends a request whose server died before answering only when a replay is safe", () => {
  it('a read goes to the next server', async () => {
    const { base, dying, sound } = await balancerOverADyingBackend();
    const answer = await fetch(`${base}/api/flows/f`);
    expect([answer.status, await answer.text()]).toEqual([200, 'sound']);
    expect([dying.received, sound.received]).toEqual([['GET /api/flows/f'], ['GET /api/flows/f']]);
  });

  it('a flow event carrying its expected version goes to the next server, the same body with it', async () => {
    const { base, dying, sound } = await balancerOverADyingBackend();
    const answer = await fetch(`${base}/api/flows/f/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [EXPECTED_VERSION_HEADER]: '3' },
      body: JSON.stringify({ event: { type: 'CONTINUE' }, expectedVersion: 3 }),
    });
    expect([answer.status, await answer.text()]).toEqual([200, 'sound']);
    expect([dying.received.length, sound.received.length]).toEqual([1, 1]);
  });

  it('any other write may have been applied: the visitor gets 502 and the next server never sees it', async () => {
    const { base, dying, sound } = await balancerOverADyingBackend();
    const answer = await fetch(`${base}/api/functions/send-contact-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    });
    expect(answer.status).toBe(502);
    expect([dying.received.length, sound.received.length]).toEqual([1, 0]);
  });
});
