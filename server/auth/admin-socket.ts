import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { WebSocket } from 'ws';
import { ADMIN_LIVE_SESSION_ENDED } from '#machines/protocol/admin-live.js';
import type { ChannelListener } from '#core/db/channel-listener.js';
import { readSession, sessionTokenHash } from './sessions.js';

/** How often an open admin socket reads its session again (expiry; a missed announcement). */
const ADMIN_SESSION_CHECK_MS = 60_000;
/** The PostgreSQL channel a deleted session's token hash is announced on (migration session-ended-notice). */
const SESSION_ENDED_CHANNEL = 'session_ended';

/** One socket being watched: what ends it, and the re-check of its session. */
interface Watched {
  end: () => void;
  check: () => Promise<boolean>;
}

/**
 * Ties every admin socket of this process to the session that opened it. A session deleted anywhere
 * (sign-out in another process, a password reset from the command line) is announced by PostgreSQL
 * and its sockets close at once with 4401; a timed re-read catches expiry, and after a lost LISTEN
 * connection every socket is re-read, since announcements made meanwhile are gone.
 */
export class AdminSockets {
  private readonly byHash = new Map<string, Set<Watched>>();

  /** Registers its channel on the server's `notices` listener, which its owner starts and stops. */
  constructor(
    private readonly pool: pg.Pool,
    notices: ChannelListener,
    private readonly log: FastifyBaseLogger,
    private readonly checkEveryMs = ADMIN_SESSION_CHECK_MS,
  ) {
    notices.on(SESSION_ENDED_CHANNEL, {
      onNotify: (hash) => {
        for (const watched of this.byHash.get(hash) ?? []) watched.end();
      },
      onRelisten: () => {
        for (const set of this.byHash.values()) for (const watched of set) void watched.check().catch(() => {});
      },
    });
  }

  /**
   * Watches `socket` until it closes. `stillSignedIn` reads the session now (and closes the socket
   * when it has ended); the database not answering is not the admin signing out.
   */
  watch(socket: WebSocket, token: string | undefined, log = this.log): { stillSignedIn: () => Promise<boolean> } {
    const end = () => socket.close(ADMIN_LIVE_SESSION_ENDED, 'Your admin session has ended; sign in again.');
    const check = async (): Promise<boolean> => {
      const user = await readSession(this.pool, token);
      if (user?.role === 'admin') return true;
      end();
      return false;
    };
    const hash = sessionTokenHash(token ?? '');
    const watched: Watched = { end, check };
    let set = this.byHash.get(hash);
    if (!set) this.byHash.set(hash, (set = new Set()));
    set.add(watched);
    const timer = setInterval(() => {
      check().catch((error: unknown) => log.warn({ err: error }, 'admin socket session check failed'));
    }, this.checkEveryMs);
    socket.once('close', () => {
      clearInterval(timer);
      set.delete(watched);
      if (!set.size) this.byHash.delete(hash);
    });
    // a sign-out between the upgrade's guard and this registration was announced to no one
    check().catch(() => {});
    return { stillSignedIn: check };
  }
}
