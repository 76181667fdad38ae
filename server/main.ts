import { once } from 'node:events';
import { loadConfigOrExit, requireUrl } from '#core/config/index.js';
import { buildApp } from './app.js';
import { ensureAdmin } from './auth/admin-users.js';
import { createPool } from '#core/db/pool.js';
import { migrate } from '#core/db/migrate.js';
import { MachineFleet } from '#core/flows/fleet.js';
import { assertStoredFlowsSupported, upgradeSettledFlows, upgradeStoredFlows, versionsOf } from '#core/flows/machine-versions.js';
import { queuePrefixOrExit } from '#core/queues/prefix.js';
import { createRedis } from '#core/redis.js';
import { onShutdown } from '#core/shutdown.js';

const envConfig = loadConfigOrExit();
const pool = createPool(requireUrl(envConfig, 'DATABASE_URL'), envConfig.PG_POOL_MAX);
const redis = createRedis(requireUrl(envConfig, 'REDIS_URL'), 'producer');
// the queue prefix is this database's (claimed in Redis), so the server waits for both to answer
if (redis.status !== 'ready') await once(redis, 'ready');
const config = { ...envConfig, QUEUE_PREFIX: await queuePrefixOrExit(pool, redis, envConfig.QUEUE_PREFIX) };
// the live processes' machine versions: while an older one lives, flows are written at its version,
// and once it has gone this server moves them up (decision 0057)
const fleet: MachineFleet = new MachineFleet(redis, config.QUEUE_PREFIX, 'server', {
  log: { warn: (object, message) => app.log.warn(object, message) },
  onSettled: (machines) => void upgradeSettledFlows(pool, machines, { log: app.log }),
});
const app = await buildApp({ config, pool, redis, writeVersions: fleet.writeVersions });

try {
  await migrate(requireUrl(config, 'DATABASE_URL'), (message) => app.log.info(message));
  await assertStoredFlowsSupported(pool);
  await fleet.start();
  // Flows an older machine version wrote are moved up before the server listens, so the queries that
  // read snapshots or states directly see this build's states; but only the machines no older live
  // process still runs (the others once it has gone: onSettled above). The server alone does it: one
  // process is enough, and a worker starts without migrating or checking the database at all.
  await upgradeStoredFlows(pool, { versions: versionsOf(fleet.settled()), log: app.log });
  const admin = await ensureAdmin(pool, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
  if (admin.created) {
    app.log.info({ email: admin.email }, 'created the first admin account');
    // Straight to the terminal, never into the logs: shown once, on the first start only.
    if (admin.generatedPassword) {
      process.stdout.write(
        `\n  Admin account: ${admin.email}  one-time password: ${admin.generatedPassword}\n` +
          '  (shown only now; change it with `npm run admin -- reset-password EMAIL`)\n\n',
      );
    }
  }
  await app.listen({ host: config.HOST, port: config.PORT });
} catch (error) {
  app.log.fatal({ err: error }, 'server failed to start');
  await app.close().catch(() => {});
  await fleet.stop();
  await Promise.allSettled([pool.end(), redis.quit()]);
  process.exit(1);
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
process.send?.({ type: 'ready', port });
// and again in a moment: a process that had not yet seen the last older one go may have written its version meanwhile
void upgradeSettledFlows(pool, fleet.settled(), { log: app.log });

onShutdown(app.log, async () => {
  // close() stops accepting, ends websockets and waits for in-flight requests
  await app.close();
  // last: nothing of this process writes a flow any more
  await fleet.stop();
  await Promise.allSettled([pool.end(), redis.quit()]);
});
