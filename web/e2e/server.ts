import { fileURLToPath } from 'node:url';
import { buildTestApp, type TestApp, type TestAppOptions } from '#test/test-app.js';

export interface TestServerOptions {
  /**
   * A BullMQ and rate-limit key prefix of this server's own, so a test that exhausts a rate limit
   * (e.g. the contact form's) does not affect other files. Default: the run's shared prefix.
   */
  privatePrefix?: boolean;
  /** Collect the server's log lines at this level and above into `logs`. */
  logLevel?: 'info' | 'warn' | 'error';
  /** Loopback fakes of third-party APIs the server talks to instead (e.g. Brevo's). */
  fakes?: TestAppOptions['fakes'];
}

/** The real app serving the built site; `url`, `pool` and `logs` are what browser tests use. */
export type TestServer = TestApp;

/**
 * The built site folder: web/dist, or E2E_WEB_ROOT to test a build made elsewhere (lets two people
 * build and test the web app at once without overwriting each other's web/dist).
 */
export const WEB_ROOT = process.env.E2E_WEB_ROOT ?? fileURLToPath(new URL('../dist', import.meta.url));

/** The real app, listening on a free loopback port, against this run's database and Redis. */
export function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return buildTestApp({
    listen: true,
    webRoot: WEB_ROOT,
    poolSize: 4,
    ownPrefix: options.privatePrefix,
    logLevel: options.logLevel,
    fakes: options.fakes,
  });
}
