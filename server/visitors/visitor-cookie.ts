import { randomUUID } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { appSecret } from '#core/app-secrets.js';
import type { Config } from '#core/config/index.js';
import { recordVisitor } from '#core/visitors.js';
import { cookieOptions } from '../auth/cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The visitor this browser is, from its signed cookie; null before it has one (or with a forged one). */
    visitorId: string | null;
  }
}

/** The visitor cookie's name. */
export const VISITOR_COOKIE = 'hf_visitor';
/** How long a browser stays the same visitor without starting anything new. */
const VISITOR_COOKIE_DAYS = 180;
/** Only the API reads it: pages and assets never carry it. */
const VISITOR_COOKIE_PATH = '/api';
const SECRET_NAME = 'visitor_cookie';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The cookie's signing key: made once, on the first start, and kept in app_secrets so every server
 * process signs and checks with the same one. Deleting the row signs every visitor out of their
 * flows (they start afresh), which is the way to rotate it.
 */
export function loadSigningKey(pool: pg.Pool): Promise<string> {
  return appSecret(pool, SECRET_NAME);
}

/**
 * Visitors (docs/decisions/0001-visitor-ownership.md): a browser is known by a random id in an
 * httpOnly, SameSite=Lax cookie signed with HMAC-SHA256, issued the first time it starts anything.
 * Every /api request gets `request.visitorId` (null without a valid cookie); routes that create
 * something call `ensureVisitor`. The key is read from the database on the first request that
 * needs it, so the app builds (and answers /readyz) while PostgreSQL is still away.
 */
export class Visitors {
  private signer: Promise<Signer> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly config: Config,
  ) {}

  /** Adds the hook that reads the cookie of every API request. */
  install(app: FastifyInstance): void {
    app.decorateRequest('visitorId', null);
    // a callback hook, not an async one: most requests (pages, assets, probes) leave it at once
    app.addHook('onRequest', (request, _reply, done) => {
      const raw = request.cookies?.[VISITOR_COOKIE];
      if (!raw || !request.url.startsWith('/api/')) return done();
      this.signing()
        .then((signer) => {
          const unsigned = signer.unsign(raw);
          if (unsigned.valid && unsigned.value && UUID.test(unsigned.value)) request.visitorId = unsigned.value;
        })
        .then(() => done(), done);
    });
  }

  /** This request's visitor, made (with its cookie) when the browser has none yet. */
  async ensure(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const id = request.visitorId ?? randomUUID();
    await recordVisitor(this.pool, id);
    if (request.visitorId !== id) {
      reply.setCookie(VISITOR_COOKIE, (await this.signing()).sign(id), {
        ...cookieOptions(this.config),
        path: VISITOR_COOKIE_PATH,
        maxAge: VISITOR_COOKIE_DAYS * 24 * 60 * 60,
      });
      request.visitorId = id;
    }
    return id;
  }

  private signing(): Promise<Signer> {
    this.signer ??= loadSigningKey(this.pool).then(
      (key) => new Signer(key, 'sha256'),
      (error: unknown) => {
        this.signer = null;
        throw error;
      },
    );
    return this.signer;
  }
}
