import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { AdminSockets } from '../auth/admin-socket.js';
import type { Config } from '#core/config/index.js';
import type { FlowEngine } from '#core/flows/engine.js';
import type { PushHub } from '#core/flows/push.js';
import type { Queues } from '#core/queues/queues.js';
import type { PublicSettings } from '#core/site/public-settings.js';
import type { Visitors } from '../visitors/visitor-cookie.js';

/** What every route plugin gets. */
export interface RouteDeps {
  config: Config;
  pool: pg.Pool;
  redis: Redis;
  engine: FlowEngine;
  pushes: PushHub;
  /** The process's BullMQ queues, on the producer connection: for adding, counting and removing jobs. */
  queues: Queues;
  /** The visitor cookie: who a public request comes from (request.visitorId), and issuing it. */
  visitors: Visitors;
  /** Open admin sockets, each closed at once when its session ends in any process. */
  adminSockets: AdminSockets;
  /** The site and booking settings visitors see, kept in memory until a change is announced. */
  publicSettings: PublicSettings;
}
