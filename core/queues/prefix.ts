import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';

/*
 * Which Redis keys are this database's (decision 0052). Two copies of the product on one machine find the same
 * Redis on 127.0.0.1:6379; with one fixed prefix their workers would take each other's jobs and run
 * them against the wrong database. So the default prefix is derived from the database's identity,
 * and every process claims its prefix for that identity before it serves.
 */

/** What tells one database from every other: its cluster's system identifier and its own oid; the name is for people. */
export interface DatabaseIdentity {
  systemId: string;
  oid: string;
  name: string;
}

export async function databaseIdentity(db: pg.Pool | pg.ClientBase): Promise<DatabaseIdentity> {
  const result = await db.query<DatabaseIdentity>(
    `SELECT (SELECT system_identifier::text FROM pg_control_system()) AS "systemId", oid::text AS oid, datname AS name
     FROM pg_database WHERE datname = current_database()`,
  );
  return result.rows[0]!;
}

/**
 * The default queue prefix: `hf-<database name>-<hash of the identity>`. A restored copy (a new
 * database, so a new oid) gets a prefix of its own: it never meets the jobs the old one left in
 * Redis, and its relay rebuilds its queues from the jobs table.
 */
export function derivedQueuePrefix(identity: DatabaseIdentity): string {
  const hash = createHash('sha256').update(`${identity.systemId}/${identity.oid}`).digest('hex').slice(0, 10);
  const name = identity.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32);
  return `hf-${name}-${hash}`;
}

/** The key that says which database a prefix's queues belong to. */
export const ownerKey = (prefix: string) => `${prefix}:owner`;

const ownerValue = (identity: DatabaseIdentity) => `${identity.systemId}/${identity.oid}/${identity.name}`;

class QueuePrefixTakenError extends Error {
  constructor(prefix: string, owner: string) {
    const ownerName = owner.split('/').slice(2).join('/') || 'unknown';
    super(
      `Redis already holds queue prefix "${prefix}" for another database ("${ownerName}"); ` +
        'set QUEUE_PREFIX to a prefix of its own for this database, or point REDIS_URL at another Redis.',
    );
    this.name = 'QueuePrefixTakenError';
  }
}

/**
 * Claims `prefix` for this database (the first process to get there writes the owner key), or
 * throws QueuePrefixTakenError when another database holds it. Redis that lost its keys (a
 * FLUSHALL, a new Redis) is claimed again by the next process to start.
 */
async function claimQueuePrefix(redis: Redis, prefix: string, identity: DatabaseIdentity): Promise<void> {
  const mine = ownerValue(identity);
  await redis.set(ownerKey(prefix), mine, 'NX');
  const owner = await redis.get(ownerKey(prefix));
  if (owner !== null && owner !== mine) throw new QueuePrefixTakenError(prefix, owner);
}

/** The prefix a process uses: QUEUE_PREFIX when set, else the database's own; claimed for this database either way. */
async function resolveQueuePrefix(pool: pg.Pool, redis: Redis, configured: string | undefined): Promise<string> {
  const identity = await databaseIdentity(pool);
  const prefix = configured ?? derivedQueuePrefix(identity);
  await claimQueuePrefix(redis, prefix, identity);
  return prefix;
}

/** resolveQueuePrefix for a process's start: on failure, one line on stderr, the connections closed, exit 1. */
export async function queuePrefixOrExit(pool: pg.Pool, redis: Redis, configured: string | undefined): Promise<string> {
  try {
    return await resolveQueuePrefix(pool, redis, configured);
  } catch (error) {
    const reason =
      error instanceof QueuePrefixTakenError ? error.message : `Could not start: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${reason}\n`);
    await Promise.allSettled([pool.end(), redis.quit()]);
    process.exit(1);
  }
}
