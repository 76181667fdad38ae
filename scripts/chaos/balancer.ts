import http from 'node:http';
import net from 'node:net';
import { EXPECTED_VERSION_HEADER } from '#machines/protocol/api.js';

/**
 * The fault run's own load balancer, standing in for the reverse proxy of deploy/Caddyfile when no
 * container runtime is at hand: round robin over the server processes' loopback ports, a backend
 * whose connection is refused (killed, or restarting) skipped for the next, and every one tried
 * again for up to 10 s, as the proxy's `lb_try_duration` does; websocket upgrades piped through to
 * the backend chosen.
 * A request already sent to a backend that then dies before answering is sent to another only if
 * replaying it is safe (mayResend), as deploy/Caddyfile's `lb_retry_match` rules; any other may have
 * been applied, so the visitor gets 502 and retries. Headers pass as they are: every simulated
 * visitor dials from 127.0.0.1 and names its own address in X-Forwarded-For, which the servers
 * (TRUST_PROXY_HOPS=1) read as the address this proxy saw.
 */

/**
 * True when a request whose backend died mid-way may go to another: a GET or HEAD changes nothing,
 * and a flow event carrying its expected version (EXPECTED_VERSION_HEADER) is applied only at that
 * version, so a replay of one that landed is answered 409 with the flow (decision 0057).
 */
function mayResend(request: Pick<http.IncomingMessage, 'method' | 'headers'>): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers[EXPECTED_VERSION_HEADER] !== undefined;
}

/** How long a request is tried on the backends, and the pause between rounds: deploy/Caddyfile's lb_try_duration and lb_try_interval. */
const TRY_DURATION_MS = 10_000;
const TRY_INTERVAL_MS = 250;

export class Balancer {
  private turn = 0;
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly ports: () => number[]) {
    this.server = http.createServer((request, response) => void this.forward(request, response));
    this.server.on('upgrade', (request, socket, head) => this.upgrade(request, socket as net.Socket, head));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The backends in the order to try them: the next in turn first, then the others. */
  private order(): number[] {
    const ports = this.ports();
    const first = this.turn++ % ports.length;
    return [...ports.slice(first), ...ports.slice(0, first)];
  }

  private async forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    // bodies here are small JSON: held whole so that a refused backend's request can go to the next
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // every backend in turn, then again after a pause until TRY_DURATION_MS, as Caddy's lb_try_duration
    const deadline = Date.now() + TRY_DURATION_MS;
    for (;;) {
      for (const port of this.order()) if ((await this.send(port, request, body, response)) === 'sent') return;
      if (Date.now() + TRY_INTERVAL_MS > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, TRY_INTERVAL_MS));
    }
    response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway: no server answers');
  }

  /** Sends the request to one backend: 'sent' once it answered or failed for good, 'refused' when another may take it. */
  private send(port: number, request: http.IncomingMessage, body: Buffer, response: http.ServerResponse): Promise<'sent' | 'refused'> {
    return new Promise((resolve) => {
      const upstream = http.request(
        // a connection of its own per request: a kept-alive one that a stopping server closes would
        // fail a request the server never saw, where a new one is refused and goes to the next
        { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent: false },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.once('error', () => response.destroy());
          resolve('sent');
        },
      );
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        // refused: the request never reached that backend, so the next may take it; a safe one may go again
        if (error.code === 'ECONNREFUSED' || (!response.headersSent && mayResend(request))) return resolve('refused');
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
        else response.destroy();
        resolve('sent');
      });
      upstream.end(body);
    });
  }

  private upgrade(request: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    const ports = this.order();
    const attempt = (index: number) => {
      if (index >= ports.length) return client.destroy();
      const upstream = net.connect(ports[index]!, '127.0.0.1');
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') return attempt(index + 1);
        client.destroy();
      });
      upstream.once('connect', () => {
        const lines = [`${request.method} ${request.url} HTTP/1.1`];
        for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
        // either side gone ends the other: a killed server closes its visitors' sockets, which reconnect
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
      });
    };
    client.on('error', () => {});
    attempt(0);
  }
}
