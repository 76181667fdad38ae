import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contactFormNotices } from '#machines/contact-form/contact-form.machine.js';
import { contactFieldErrors, type ContactField, type ContactFormOutcome } from '#machines/protocol/contact-form.js';
import { acceptContactMessage } from '#core/contact/accept-message.js';
import { acceptFormBodies } from '../plugins/form-bodies.js';
import { logRefusal } from '../plugins/input-limits.js';
import type { RenderedPages } from '../plugins/rendered-pages.js';
import { captureGate } from '../plugins/capture-limit.js';
import { rateLimits } from '../plugins/security.js';
import { contactBodySchema } from './contact.js';
import type { RouteDeps } from './deps.js';

const FIELDS = ['name', 'email', 'company', 'message'] as const satisfies readonly ContactField[];
const NO_VALUES: Record<ContactField, string> = { name: '', email: '', company: '', message: '' };

/** The form's four fields as text: a missing one empty, anything but text ignored. */
function formValues(body: unknown): Record<ContactField, string> {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const values = { ...NO_VALUES };
  for (const field of FIELDS) if (typeof fields[field] === 'string') values[field] = fields[field];
  return values;
}

/**
 * True when the browser says the form was posted by a page of this site: by Fetch Metadata
 * (Sec-Fetch-Site, which every current browser sends), else by its Origin (the site's own host, or
 * the public address). A client that sends neither is no browser a foreign page could drive (every
 * browser sends one of them with a POST), so it may post, as it may call the JSON API. The pages
 * are drawn once for every visitor (decisions 0026, 0027), so they cannot carry a per-visitor
 * token; the browser's own word about where a post comes from is what refuses a forged one.
 */
function postedFromOwnSite(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return url.host === request.headers.host || url.origin === new URL(publicUrl).origin;
  } catch {
    // "null" (a sandboxed or privacy-minded sender) or anything unparseable is not the site
    return false;
  }
}

/**
 * POST /contact: the contact form as a browser without JavaScript sends it (the page's form posts
 * here; with the site's code the same form is sent to send-contact-email by fetch). Answered with
 * the contact page drawn with the outcome, in the product's words: 200 sent (the form empty); 400
 * with each refused field named and the form as sent; 403 for a post from another site; 429 past the
 * per-address limit and any other refusal with the failure notice and the form as sent. Never a
 * redirect carrying the message: nothing of it reaches an address or an access log.
 */
export function contactFormRoutes(app: FastifyInstance, deps: RouteDeps & { pages: RenderedPages | null }, done: () => void): void {
  acceptFormBodies(app);

  const answer = async (reply: FastifyReply, status: number, outcome: ContactFormOutcome): Promise<FastifyReply> => {
    const page = await deps.pages?.contactPage(outcome);
    // it shows one person's message: never kept by a browser or a cache
    reply.status(status).header('cache-control', 'no-store');
    if (page) return reply.type('text/html; charset=utf-8').send(page);
    // a server without the built site (tests, a bare API deployment) still says what happened
    const errors = Object.entries(outcome.errors).map(([field, text]) => `${field}: ${text}`);
    return reply
      .type('text/plain; charset=utf-8')
      .send([(outcome.sent ? contactFormNotices.success : contactFormNotices.failure).title, ...errors].join('\n'));
  };

  // the address typed here is stored and mailed: one more capture for this client (decision 0045),
  // counted only for a post this site's page made and the rules accept, so a forged or refused one
  // spends none of the visitor's captures
  const countCapture = captureGate(deps);

  app.post(
    '/contact',
    {
      // counted once the body is read, so a refused post is answered with the form as sent
      config: { rateLimit: { ...rateLimits.contact, hook: 'preHandler' } },
      schema: { hide: true },
      // whatever refuses the post (the rate limit, a body past the limits, a fault of ours) is
      // answered with the page and the failure notice, the form kept as sent
      errorHandler: (error: FastifyError, request, reply) => {
        const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) request.log.error({ err: error }, 'contact form failed');
        else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') logRefusal(request.log, 'bodyBytes');
        void answer(reply, status, { sent: false, values: formValues(request.body), errors: {} });
      },
    },
    async (request, reply) => {
      if (!postedFromOwnSite(request, deps.config.publicUrl)) {
        request.log.warn({ secFetchSite: request.headers['sec-fetch-site'] ?? null }, 'contact form posted by another site: refused');
        return answer(reply, 403, { sent: false, values: NO_VALUES, errors: {} });
      }
      const values = formValues(request.body);
      const errors = contactFieldErrors(values);
      const message = contactBodySchema.safeParse(values);
      if (!message.success || Object.keys(errors).length > 0) {
        // the API's rules are the form's; a difference between them is still named by field
        for (const issue of message.success ? [] : message.error.issues) {
          const field = issue.path[0] as ContactField;
          errors[field] ??= issue.message;
        }
        return answer(reply, 400, { sent: false, values, errors });
      }
      await countCapture(request, reply);
      const { name, email, company, message: text } = message.data;
      await acceptContactMessage(deps.pool, deps.config, { name, email, company: company || null, message: text });
      return answer(reply, 200, { sent: true, values: NO_VALUES, errors: {} });
    },
  );
  done();
}
