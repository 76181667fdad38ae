import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { HttpError } from '#core/http-error.js';
import { UnsupportedMachineVersionError } from '#machines/flow-versions.js';
import { BODY_SIZE_MESSAGE, limitError, logRefusal } from './input-limits.js';

/** The one shape of every error response (an HttpError may add fields of its own, such as a 409's flow). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  fields?: Record<string, string>;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** A zod failure as { 'a.b': 'message' }, naming each bad field. */
function zodFields(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '(body)';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The answer while PostgreSQL cannot be reached. */
export const DATABASE_DOWN_MESSAGE = 'The database is not answering right now. Please try again in a moment.';
export const NEWER_FLOW_MESSAGE = 'The site is being updated. Please try again in a moment.';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '57P01', '57P03']);

/** True for a failure to reach PostgreSQL (refused, reset, shut down, or the pool's connect timeout). */
function isDatabaseUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const causes = (error as { errors?: unknown }).errors;
  if (Array.isArray(causes) && causes.some((cause) => cause instanceof Error && isDatabaseUnavailable(cause))) return true;
  return /timeout exceeded when trying to connect|Connection terminated/.test(error.message);
}

/** Sends an HttpError's answer: its status and its ErrorBody. */
export function sendHttpError(reply: FastifyReply, error: HttpError): FastifyReply {
  const { statusCode } = error;
  return reply
    .status(statusCode)
    .send({ statusCode, error: REASONS[statusCode] ?? 'Error', message: error.message, ...error.details } satisfies ErrorBody);
}

/**
 * Shapes every error as ErrorBody: routes throw (an HttpError for an answer of their own, zod and
 * Fastify's errors for bad input) and never send an error body themselves. The details of an
 * unexpected 5xx are logged and hidden.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ZodError | Error, request, reply) => {
    if (error instanceof HttpError) return sendHttpError(reply, error);
    if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      logRefusal(request.log, 'bodyBytes');
      return sendHttpError(reply, limitError(413, 'body', BODY_SIZE_MESSAGE));
    }
    if (error instanceof ZodError) {
      const fields = zodFields(error);
      return reply.status(400).send({
        statusCode: 400,
        error: 'Bad Request',
        message: `Invalid ${Object.keys(fields).join(', ')}`,
        fields,
      } satisfies ErrorBody);
    }
    if ('validation' in error && Array.isArray(error.validation) && error.validation.length) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
        fields[key] ??= issue.message ?? 'is invalid';
      }
      return reply.status(400).send({
        statusCode: 400,
        error: 'Bad Request',
        message: `Invalid ${error.validationContext ?? 'request'}: ${Object.keys(fields).join(', ')}`,
        fields,
      } satisfies ErrorBody);
    }
    // a rolling deploy: a newer server moved this flow up while this older one still serves; the
    // request did nothing, and the next try reaches a newer server (decision 0054)
    if (error instanceof UnsupportedMachineVersionError && error.version > error.current) {
      request.log.warn({ machine: error.machine, version: error.version, current: error.current }, 'flow newer than this build');
      reply.header('retry-after', '1');
      return reply.status(503).send({ statusCode: 503, error: 'Service Unavailable', message: NEWER_FLOW_MESSAGE } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.status(503).send({ statusCode: 503, error: 'Service Unavailable', message: DATABASE_DOWN_MESSAGE } satisfies ErrorBody);
    }
    const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(statusCode).send({
        statusCode,
        error: REASONS[statusCode] ?? 'Server Error',
        message: statusCode === 503 ? error.message : 'Something went wrong on our side. Please try again.',
      } satisfies ErrorBody);
    }
    return reply.status(statusCode).send({
      statusCode,
      error: REASONS[statusCode] ?? 'Error',
      message: error.message,
    } satisfies ErrorBody);
  });
}
