import { pino, type LoggerOptions } from 'pino';
import type { Config } from './config/index.js';
import { logSerializers } from './log-serializers.js';

/** Paths whose values never reach a log line. */
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers["x-slack-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.secret',
  '*.apiKey',
  'databaseUrl',
  'redisUrl',
];

/** Logger options shared by Fastify and the worker process: pretty in a terminal, JSON lines otherwise. */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL' | 'prettyLogs'>, name: string): LoggerOptions {
  return {
    name,
    level: config.LOG_LEVEL,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: logSerializers,
    ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
}

/** A standalone logger for processes without Fastify (workers, scripts). */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'prettyLogs'>, name: string) {
  return pino(loggerOptions(config, name));
}
