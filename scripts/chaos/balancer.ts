import http from 'node:http';
import net from 'node:net';

/**
 * The fault run's own load balancer, standing in for the reverse proxy of deploy/Caddyfile when no
 * container runtime is at hand: round robin over the server processes' loopback ports, a backend
 * whose connection is refused (killed, or restarting) skipped for the next, as the proxy's passive
 * health check and `lb_try_duration` do; websocket upgrades piped through to the backend chosen.
 * A request already sent to a backend that then dies is sent again only if it is a GET or HEAD, as
 * Caddy does by default; any other may have been applied, so the visitor gets 502 and retries. Headers pass as they are: every
 * simulated visitor dials from 127.0.0.1 and names its own address in X-Forwarded-For, which the
 * servers (TRUST_PROXY_HOPS=1) read as the address this proxy saw.
 */
/** Requests that change nothing, which may be sent again to another backend after one fails mid-way. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

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
    for (const port of this.order()) {
      const outcome = await new Promise<'sent' | 'refused'>((resolve) => {
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
          // refused: the request never reached that backend, so the next may take it; a read may go again
          if (error.code === 'ECONNREFUSED' || (!response.headersSent && SAFE_METHODS.has(request.method ?? ''))) return resolve('refused');
          if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
          else response.destroy();
          resolve('sent');
        });
        upstream.end(body);
      });
      if (outcome === 'sent') return;
    }
    response.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway: no server answers');
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
