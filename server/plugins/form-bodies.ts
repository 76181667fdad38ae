import type { FastifyInstance } from 'fastify';
import { INPUT_LIMITS, limitError, logRefusal } from './input-limits.js';

/**
 * The fields of a form body, as a browser posts a form (urlencoded) and RFC 8058's one-click POST
 * sends `List-Unsubscribe=One-Click` (urlencoded, or multipart/form-data, which the RFC allows too).
 * Only plain text fields are read; a part with a filename is not a field. Null when the body holds
 * more than INPUT_LIMITS.formFields fields.
 */
function formFields(body: string, contentType: string): Record<string, string> | null {
  const fields: Record<string, string> = {};
  let count = 0;
  if (!contentType.startsWith('multipart/form-data')) {
    for (const [name, value] of new URLSearchParams(body)) {
      if (++count > INPUT_LIMITS.formFields) return null;
      fields[name] = value;
    }
    return fields;
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return {};
  for (const part of body.split(`--${boundary}`)) {
    const end = part.indexOf('\r\n\r\n');
    const head = end < 0 ? '' : part.slice(0, end);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (!name || /filename=/i.test(head)) continue;
    if (++count > INPUT_LIMITS.formFields) return null;
    fields[name] = part.slice(end + 4).replace(/\r\n$/, '');
  }
  return fields;
}

/**
 * Lets the plugin it is called in (and only it) read form bodies as their fields. Their size is the
 * app's body limit; more fields than INPUT_LIMITS.formFields is a 400 naming the limit.
 */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string' }, (request, body, done) => {
    const fields = formFields(String(body), request.headers['content-type'] ?? '');
    if (fields) return done(null, fields);
    logRefusal(request.log, 'formFields');
    done(limitError(400, 'body', `must not have more than ${INPUT_LIMITS.formFields} fields`), undefined);
  });
}
