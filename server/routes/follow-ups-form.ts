import type { FastifyInstance } from 'fastify';

/**
 * The fields of a form body, as RFC 8058's one-click POST sends `List-Unsubscribe=One-Click`:
 * urlencoded, or multipart/form-data (which the RFC allows too). Only plain text fields are read;
 * a part with a filename is not a field.
 */
function formFields(body: string, contentType: string): Record<string, string> {
  if (!contentType.startsWith('multipart/form-data')) return Object.fromEntries(new URLSearchParams(body));
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return {};
  const fields: Record<string, string> = {};
  for (const part of body.split(`--${boundary}`)) {
    const end = part.indexOf('\r\n\r\n');
    const head = end < 0 ? '' : part.slice(0, end);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    if (name && !/filename=/i.test(head)) fields[name] = part.slice(end + 4).replace(/\r\n$/, '');
  }
  return fields;
}

/** Lets the plugin it is called in (and only it) read form bodies as their fields. */
export function acceptFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string' }, (request, body, done) =>
    done(null, formFields(String(body), request.headers['content-type'] ?? '')),
  );
}
