import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { fleetKey } from '#core/flows/fleet.js';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { freePort } from '#scripts/services/free-port.js';
import { flowClient } from '#test/journey.js';
import { runTs } from '#test/processes.js';
import { scratchDatabase, testEnv } from '#test/helpers.js';
import { until } from '#test/until.js';

/** A connection of the test's own holding a flow's row (BEGIN ... FOR UPDATE): an event on it waits with its connection checked out. */
async function holdFlowRow(databaseUrl: string, flowId: string): Promise<pg.Client> {
  const blocker = new pg.Client(databaseUrl);
  await blocker.connect();
  onTestFinished(() => blocker.end());
  await blocker.query('BEGIN');
  await blocker.query('SELECT 1 FROM flows WHERE id = $1 FOR UPDATE', [flowId]);
  return blocker;
}

describe('server/main.ts as a process', () => {
  it('exits non-zero naming the variable when the configuration is bad', async () => {
    const server = runTs('server/main.ts', testEnv({ PORT: 'eighty' }));
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toContain('PORT: expected a port number (got "eighty")');
  });

  it('refuses to start, before it listens, over stored flows of a machine version this build cannot run', async () => {
    const databaseUrl = await scratchDatabase({ migrated: true });
    const client = new pg.Client(databaseUrl);
    await client.connect();
    // a flow a newer build wrote: version 7 of the assessment flow
    await client.query(
      "INSERT INTO flows (machine, state, snapshot, machine_version) VALUES ('assessmentFlow', 'capture', '{\"value\": \"capture\"}', 7)",
    );
    await client.end();
    const port = await freePort();
    const server = runTs(
      'server/main.ts',
      testEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    );
    const { code } = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toContain(
      `1 stored assessmentFlow flow(s) written by machine version 7, which this build (version ${flowMachineVersions.assessmentFlow.current}) is older than`,
    );
    expect(server.output()).not.toContain('Server listening');
  });

  it('migrates, bootstraps one admin across two starts, serves, and stops on SIGTERM with exit 0 within 10 s', async () => {
    const databaseUrl = await scratchDatabase({ migrated: false });
    const port = await freePort();
    const env = testEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });

    const first = runTs('server/main.ts', env);
    await first.waitFor(`Server listening at http://127.0.0.1:${port}`);
    expect(first.output()).toMatch(/Admin account: admin@localhost {2}one-time password: [A-Za-z0-9]{20}/);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);

    const sentAt = Date.now();
    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.at - sentAt).toBeLessThan(10_000);

    const second = runTs('server/main.ts', env);
    await second.waitFor(`Server listening at http://127.0.0.1:${port}`);
    expect(second.output()).not.toContain('one-time password');
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const client = new pg.Client(databaseUrl);
    await client.connect();
    const admins = await client.query("SELECT email FROM users WHERE role = 'admin'");
    await client.end();
    expect(admins.rows).toEqual([{ email: 'admin@localhost' }]);
  });

  it('stopped with SIGTERM it drains: new connections refused, the event it is applying answered 200, then it leaves the fleet and exits 0', async () => {
    const databaseUrl = await scratchDatabase({ migrated: false });
    const port = await freePort();
    const env = testEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' });
    const server = runTs('server/main.ts', env);
    onTestFinished(async () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
    });
    const base = `http://127.0.0.1:${port}`;
    const answers = () =>
      fetch(`${base}/healthz`).then(
        () => true,
        () => false,
      );
    await until(answers, 30_000, 'the server never listened');
    const redis = new Redis(inject('redisUrl'));
    onTestFinished(async () => {
      await redis.quit();
    });
    const fleet = () => redis.zrange(fleetKey(env.QUEUE_PREFIX!), '0', '-1');
    expect((await fleet()).map((member) => JSON.parse(member) as object)).toEqual([
      expect.objectContaining({
        role: 'server',
        versions: expect.objectContaining({ assessmentFlow: flowMachineVersions.assessmentFlow.current }),
      }),
    ]);

    const browser = flowClient(base);
    const flow = await browser.start();
    // the event waits on the flow's row, held by another connection, while the server is told to stop
    const blocker = await holdFlowRow(databaseUrl, flow.flowId);
    const pending = browser.call('POST', `/api/flows/${flow.flowId}/events`, {
      event: { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' },
    });
    const waitingOnTheRow = async () =>
      (await blocker.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'hf-funnel' AND wait_event_type = 'Lock'")).rowCount ===
      1;
    await until(waitingOnTheRow, 10_000, 'the event never reached the row lock');
    server.child.kill('SIGTERM');
    await until(async () => !(await answers()), 5_000, 'the stopping server still accepted connections');
    // still in the fleet while it has work in hand
    expect(await fleet()).toHaveLength(1);
    await blocker.query('ROLLBACK');
    const answered = await pending;
    expect(answered.status).toBe(200);
    expect(answered.json.state).toBe('intro');
    // and at once: the connection the answer went on is closed with it, not kept alive until its timeout
    expect((await server.exited).code).toBe(0);
    expect(await fleet()).toEqual([]);
  });

  it('a connection PostgreSQL drops in the middle of an event is replayed once on a fresh one: the visitor gets 200, the event applied once', async () => {
    const databaseUrl = await scratchDatabase({ migrated: false });
    const port = await freePort();
    const server = runTs(
      'server/main.ts',
      testEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    );
    onTestFinished(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
    });
    const base = `http://127.0.0.1:${port}`;
    await until(
      () =>
        fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      30_000,
      'the server did not answer /healthz',
    );
    const browser = flowClient(base);
    const flow = await browser.start();

    // hold the flow's row, so the event's transaction waits on it with its connection checked out
    const blocker = await holdFlowRow(databaseUrl, flow.flowId);
    const pending = browser.call('POST', `/api/flows/${flow.flowId}/events`, {
      event: { type: 'CAPTURE_SUBMIT', name: 'Ada', email: 'ada@example.com' },
    });
    let waiting: number[] = [];
    await until(
      async () => {
        waiting = (
          await blocker.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'hf-funnel' AND wait_event_type = 'Lock'",
          )
        ).rows.map((r) => r.pid);
        return waiting.length > 0;
      },
      5_000,
      "the event's transaction never waited on the held row",
    );
    expect(waiting).toHaveLength(1);
    // a real fault: the transaction's own backend is terminated while it waits, before its COMMIT
    await blocker.query('SELECT pg_terminate_backend($1, 10000)', [waiting[0]]);
    await blocker.query('ROLLBACK');

    const answered = await pending;
    expect(answered.status).toBe(200);
    expect(answered.json.state).toBe('intro');
    expect(server.child.exitCode).toBeNull();
    const replays = server.output().match(/flow transaction lost its connection before commit; replayed on a fresh one/g) ?? [];
    expect(replays).toHaveLength(1);
    expect(server.output()).toContain('57P01');
    // applied once: the versions, the lead and the effects of one capture
    // the same capture without a fault, for the count of effects one capture makes
    const calm = await browser.start();
    await browser.send(calm.flowId, { type: 'CAPTURE_SUBMIT', name: 'Bo', email: 'bo@example.com' });
    const counts = async (flowId: string, email: string) =>
      (
        await blocker.query<{ leads: string; jobs: string }>(
          `SELECT (SELECT count(*) FROM leads WHERE email = $2) AS leads, (SELECT count(*) FROM jobs WHERE flow_id = $1) AS jobs`,
          [flowId, email],
        )
      ).rows[0];
    expect((await browser.get(flow.flowId)).version).toBe((await browser.get(calm.flowId)).version);
    expect(await counts(flow.flowId, 'ada@example.com')).toEqual({ leads: '1', jobs: (await counts(calm.flowId, 'bo@example.com'))!.jobs });
    expect(server.output()).not.toContain('database unavailable');
    expect(server.output()).not.toMatch(/Connection terminated unexpectedly\n\s+at/);
  });
});
