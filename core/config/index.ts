import { existsSync } from 'node:fs';
import { z } from 'zod';

/*
 * The only module that reads process.env (architecture rule): every process loads this once at
 * start and passes the typed result down. Variables are documented in .env.example and docs/operations.md.
 */

/** A follow-up's wait in hours (decimals allowed, so a test or a trial can wait minutes): a day by default, at most 30. */
const followUpHours = z.coerce
  .number({ error: 'expected a number of hours' })
  .positive('expected more than 0 hours')
  .max(720, 'expected at most 720 hours (30 days)')
  .default(24);

const port = z.coerce
  .number({ error: 'expected a port number' })
  .int('expected a whole number')
  .min(0, 'expected a port between 0 and 65535')
  .max(65535, 'expected a port between 0 and 65535');

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'expected a number' })
    .int('expected a whole number')
    .min(1, `expected a whole number from 1 to ${max}`)
    .max(max, `expected a whole number from 1 to ${max}`);

const urlWithProtocol = (protocols: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `expected a URL like ${example}`);

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'expected development, production or test' }).default('development'),
  HOST: z.string().trim().min(1, 'expected a host name or address').default('0.0.0.0'),
  PORT: port.default(3000),
  /** Reverse proxies in front of the server whose X-Forwarded-For may be believed (0: none). */
  TRUST_PROXY_HOPS: z.coerce
    .number({ error: 'expected a number of proxies' })
    .int('expected a whole number')
    .min(0, 'expected 0 or more')
    .max(10, 'expected at most 10')
    .default(0),
  PUBLIC_URL: urlWithProtocol(['http:', 'https:'], 'https://coach.example.com').optional(),
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/db').optional(),
  PG_POOL_MAX: positiveInt(100).default(10),
  REDIS_URL: urlWithProtocol(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(),
  /** Key prefix of every BullMQ queue; unset, derived from the database's identity (core/queues/prefix.ts). */
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_{}:-]{1,64}$/, 'expected 1-64 letters, digits, _ - : { }')
    .optional(),
  /** Key prefix of the per-address rate limits' counters in Redis; unset, QUEUE_PREFIX's. */
  RATE_LIMIT_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_{}:-]{1,64}$/, 'expected 1-64 letters, digits, _ - : { }')
    .optional(),
  WORKER_CONCURRENCY: positiveInt(64).default(5),
  /**
   * How long a worker's claim on a job lasts without renewal (renewed at half of it while the job
   * runs); a job whose worker died runs again about one and a half locks later.
   */
  JOB_LOCK_MS: z.coerce
    .number({ error: 'expected milliseconds' })
    .int('expected a whole number')
    .min(1000, 'expected at least 1000 ms')
    .max(600_000, 'expected at most 600000 ms')
    .default(5_000),
  DATA_DIR: z.string().trim().min(1, 'expected a folder path').default('.data'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'expected one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  ADMIN_EMAIL: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.email('expected an email address').optional(),
  ),
  SMTP_URL: urlWithProtocol(['smtp:', 'smtps:'], 'smtp://user:password@smtp.example.com:587').optional(),
  EMAIL_FROM: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.email('expected an email address').default('coach@localhost'),
  ),
  COACH_EMAIL: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.email('expected an email address').optional(),
  ),
  STRIPE_SECRET_KEY: optionalText.refine(
    (value) => value === undefined || /^(sk|rk)_(test|live)_/.test(value),
    'expected a Stripe secret key starting sk_test_, sk_live_, rk_test_ or rk_live_',
  ),
  STRIPE_WEBHOOK_SECRET: optionalText.refine(
    (value) => value === undefined || value.startsWith('whsec_'),
    'expected a webhook signing secret starting whsec_',
  ),
  /** Where the Stripe client sends its requests; only tests point it elsewhere (a loopback fake). */
  STRIPE_API_URL: urlWithProtocol(['http:', 'https:'], 'http://127.0.0.1:12111').optional(),
  /** Where email-marketing requests go instead of https://api.brevo.com/v3; only tests point it elsewhere (a loopback fake). */
  BREVO_API_URL: urlWithProtocol(['http:', 'https:'], 'http://127.0.0.1:8025/v3').optional(),
  /**
   * Private addresses (or CIDR ranges) the coach's webhooks may reach, comma-separated, e.g. an
   * automation server on the office network; every other private, loopback or metadata address is
   * refused (core/integrations/outbound.ts).
   */
  WEBHOOK_ALLOWED_PRIVATE_ADDRESSES: z
    .string()
    .trim()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (entries) => entries.every((entry) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry)),
      'expected IP addresses or CIDR ranges, comma-separated',
    ),
  /** Slack app's signing secret: without it POST /api/slack/events refuses every request (503). */
  SLACK_SIGNING_SECRET: optionalText,
  /** How long an assessment's messages may be quiet before the group counts as complete. */
  SLACK_ASSESSMENT_QUIET_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int('expected a whole number of milliseconds')
    .min(100, 'expected at least 100 ms')
    .max(86_400_000, 'expected at most 86400000 ms (a day)')
    .default(120_000),
  /** Hours after a deposit with no booking before the lead is reminded to book (and the coach told). */
  BOOKING_REMINDER_HOURS: followUpHours,
  /** Hours after capture before a lead who has not finished the assessment is invited back. */
  ASSESSMENT_REMINDER_HOURS: followUpHours,
  /** A deposit whose session the coach cancelled: refund it at once, or flag it on the Overview for a decision. */
  COACH_CANCELLATION_POLICY: z.enum(['flag', 'refund'], 'expected flag or refund').default('flag'),
  MIRROR_LLM_BASE_URL: urlWithProtocol(['http:', 'https:'], 'http://127.0.0.1:11434/v1').optional(),
  MIRROR_LLM_MODEL: optionalText,
  MIRROR_LLM_API_KEY: optionalText,
  ADMIN_PASSWORD: optionalText.refine(
    (value) => value === undefined || value.length >= 12,
    'expected at least 12 characters for the admin password',
  ),
});

/** The configuration as the environment gives it: QUEUE_PREFIX may still be unset. */
export type EnvConfig = z.infer<typeof configSchema> & {
  /** Base URL the site is reached at; defaults to http://localhost:PORT. */
  publicUrl: string;
  /** Pretty logs for a human at a terminal, JSON lines for everything else. */
  prettyLogs: boolean;
};

/** The configuration a running process works with: its queue prefix known (resolveQueuePrefix, or set). */
export type Config = EnvConfig & { QUEUE_PREFIX: string };

/** Variables whose values must never be echoed back in an error message. */
const SECRET_KEYS = new Set([
  'DATABASE_URL',
  'REDIS_URL',
  'ADMIN_PASSWORD',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SLACK_SIGNING_SECRET',
  'MIRROR_LLM_API_KEY',
]);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates an environment into a typed Config; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: { isTTY?: boolean } = {}): EnvConfig {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'environment');
      const raw = env[key];
      const shown = raw !== undefined && !SECRET_KEYS.has(key) ? ` (got "${raw}")` : '';
      return `${key}: ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const parsed = result.data;
  return {
    ...parsed,
    publicUrl: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ''),
    prettyLogs: options.isTTY ?? Boolean(process.stdout.isTTY),
  };
}

/** Loads the process's configuration (a .env file fills in what the environment lacks), or prints what is wrong and exits 1. */
export function loadConfigOrExit(): EnvConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** The URL of a service the running process cannot do without, or a clear exit. */
export function requireUrl(config: EnvConfig, key: 'DATABASE_URL' | 'REDIS_URL'): string {
  const value = config[key];
  if (!value) {
    process.stderr.write(`${key}: required here; set it, or run the whole system with \`npm start\`, which provides one.\n`);
    process.exit(1);
  }
  return value;
}
