import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '#core/http-error.js';
import { sendHttpError } from './error-handler.js';
import { BODY_SIZE_MESSAGE, INPUT_LIMITS, limitError, logRefusal, NESTING_MESSAGE, nestedPast, type InputLimit } from './input-limits.js';

/** The number of parameters in a URL's query string, counted without parsing it. */
function queryParameterCount(url: string): number {
  const start = url.indexOf('?');
  if (start < 0 || start === url.length - 1) return 0;
  let count = 1;
  for (let at = url.indexOf('&', start); at >= 0; at = url.indexOf('&', at + 1)) count++;
  return count;
}

/** Answers a refusal from a hook (not thrown: a plugin's own error handler, bull-board's, must not shape it). */
function refuse(request: FastifyRequest, reply: FastifyReply, limit: InputLimit, error: HttpError): void {
  logRefusal(request.log, limit);
  sendHttpError(reply, error);
}

/**
 * The input limits on every route, added to the root instance (as app.ts does) before any route:
 * the address and query string at the first hook, and JSON bodies by the JSON parser, which checks
 * the nesting of the text before parsing it (fastify's own parser, secure-json-parse, after it). The
 * size of a body is fastify's bodyLimit, set to INPUT_LIMITS.bodyBytes where the app is made; its
 * 413 is shaped and logged by the error handler. Plugins that read JSON as raw bytes (the signed
 * webhooks) check its nesting with assertNestingWithin before parsing it.
 */
export function inputLimits(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.length > INPUT_LIMITS.urlLength) {
      return refuse(
        request,
        reply,
        'urlLength',
        new HttpError(414, `The address must not be longer than ${INPUT_LIMITS.urlLength} characters.`, {
          fields: { url: `must not be longer than ${INPUT_LIMITS.urlLength} characters` },
        }),
      );
    }
    // a declared length past the limit is refused before a byte is read, and answered here so a
    // plugin's own error handler (bull-board's) cannot reshape it; a chunked body past it meets
    // fastify's bodyLimit, whose 413 the error handler shapes and logs the same way
    if (Number(request.headers['content-length']) > INPUT_LIMITS.bodyBytes) {
      return refuse(request, reply, 'bodyBytes', limitError(413, 'body', BODY_SIZE_MESSAGE));
    }
    if (queryParameterCount(request.url) > INPUT_LIMITS.queryParameters) {
      return refuse(
        request,
        reply,
        'queryParameters',
        limitError(400, 'query', `must not have more than ${INPUT_LIMITS.queryParameters} parameters`),
      );
    }
    done();
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const deep = nestedPast(text);
    if (deep) {
      const field = deep.field || 'body';
      logRefusal(request.log, 'nesting', { field });
      return done(limitError(400, field, NESTING_MESSAGE), undefined);
    }
    void parseJson(request, text, done);
  });
}
