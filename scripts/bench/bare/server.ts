/*
 * (c)'s HTTP process: the hops of the product's survey submission with nothing on top, run as its
 * own bundled Node process (scripts/bench/bare/client.ts builds and starts it), so the benchmark
 * knows how fast this architecture can go on this machine.
 */
import websocket from '@fastify/websocket';
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import type { WebSocket } from 'ws';
import { createPool } from '#core/db/pool.js';
import { inTransaction } from '#core/db/transaction.js';
import { createRedis } from '#core/redis.js';
import { onShutdown } from '#core/shutdown.js';
import { BARE_QUEUE, bareSettings, pushChannel } from './names.js';

const settings = bareSettings(process.env);
// the product's own pool and Redis clients, so the settings cannot drift apart
const pool = createPool(settings.databaseUrl, settings.poolMax);
const redis = createRedis(settings.redisUrl, 'producer');
// the product's queues' job options: retries and retention are part of what a job costs in Redis
const queue = new Queue(BARE_QUEUE, {
  connection: redis,
  prefix: settings.prefix,
  defaultJobOptions: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  },
});

// this server creates the tables (the product's server migrates), before the worker is started
await pool.query(`
  CREATE TABLE IF NOT EXISTS bare_events (
    id bigserial PRIMARY KEY, request_id text NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare_jobs (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), event_id bigint NOT NULL, state text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS bare_results (
    job_id uuid PRIMARY KEY, result jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
`);

/** The socket of each client waiting for its push, by the request id it subscribed with. */
const waiting = new Map<string, WebSocket>();
// a subscriber connection can do nothing else, so it is a connection of its own (as the product's hub)
const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
subscriber.on('error', () => {});
subscriber.on('message', (_channel: string, frame: string) => {
  waiting.get((JSON.parse(frame) as { requestId: string }).requestId)?.send(frame);
});
await subscriber.subscribe(pushChannel(settings.prefix));

const app = Fastify({ logger: false });
// the product's frame limit; the client's frames are small
await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

// the yardstick of the serving figures: a Fastify route with nothing behind it
app.get('/bare', () => ({ status: 'ok' }));

app.get('/ws', { websocket: true }, (socket) => {
  let subscribed: string | undefined;
  socket.on('message', (raw: Buffer) => {
    subscribed = (JSON.parse(raw.toString()) as { subscribe: string }).subscribe;
    waiting.set(subscribed, socket);
    socket.send(JSON.stringify({ type: 'subscribed', requestId: subscribed }));
  });
  socket.on('close', () => {
    if (subscribed !== undefined && waiting.get(subscribed) === socket) waiting.delete(subscribed);
  });
});

app.post<{ Body: { requestId: string; answers: unknown } }>('/events', async (request) => {
  const { requestId, answers } = request.body;
  // the event and the job row commit together, as the product's event and outbox rows do
  const jobId = await inTransaction(pool, async (client) => {
    const event = await client.query<{ id: string }>('INSERT INTO bare_events (request_id, payload) VALUES ($1, $2) RETURNING id', [
      requestId,
      JSON.stringify({ type: 'SURVEY_SUBMITTED', answers }),
    ]);
    const job = await client.query<{ id: string }>("INSERT INTO bare_jobs (event_id, state) VALUES ($1, 'queued') RETURNING id", [
      event.rows[0]!.id,
    ]);
    return job.rows[0]!.id;
  });
  await queue.add('grade', { requestId, jobId }, { jobId });
  return { jobId };
});

await app.listen({ host: settings.host, port: settings.port });
process.send?.({ type: 'ready' });

// as the product's processes stop: on a signal or when the bench that started it goes away
onShutdown(app.log, async () => {
  await app.close();
  subscriber.disconnect();
  await Promise.allSettled([queue.close(), pool.end()]);
  redis.disconnect();
});
