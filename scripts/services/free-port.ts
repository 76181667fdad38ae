import net from 'node:net';

function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now and that is not one of `avoid`:
 * a port someone else has chosen but not yet bound (the site's PORT, while PostgreSQL starts first)
 * is free to the operating system, which may hand it out again.
 */
export async function freePort(avoid: readonly number[] = []): Promise<number> {
  for (;;) {
    const port = await ephemeralPort();
    if (!avoid.includes(port)) return port;
  }
}
