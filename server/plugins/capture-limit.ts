import ipaddr from 'ipaddr.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../routes/deps.js';
import { TooManyRequestsError } from './security.js';

/**
 * One limit on every way an address is typed in to be kept and mailed (decision 0045): the
 * capture and email-capture events, whichever route carries them (POST /api/leads, POST
 * /api/flows/:id/events), and the contact form. Counted per client address in Redis, shared by
 * every route and every process, so spreading captures over routes gains nothing. An owner's
 * assessment captures once or twice; an office behind one address fits many.
 */
export const captureLimit = { max: 20, windowMs: 10 * 60_000 } as const;

/** The flow events that carry a typed address to capture. */
const CAPTURE_EVENTS: ReadonlySet<string> = new Set(['CAPTURE_SUBMIT', 'EMAIL_SUBMIT']);

/** Whether a flow event (as a body names it) captures an address. */
export function isCaptureEvent(event: { type: string } | undefined): boolean {
  return event !== undefined && CAPTURE_EVENTS.has(event.type);
}

// one fixed window per address, like @fastify/rate-limit's: the first capture starts it
const TAKE = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

/**
 * The address a client is counted by: an IPv4 address (or an IPv4-mapped IPv6 one) as it is, an
 * IPv6 one by its /64 network, since one household or host holds a whole /64.
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip.toLowerCase();
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/** How long to wait, in the words @fastify/rate-limit's 429 uses ('45 seconds', '10 minutes'). */
function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

type CaptureGate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A preHandler counting the request against the client's capture limit when `captures(request)`
 * says it captures (always, by default). It runs after the body is validated and before the
 * handler, so a refused capture stores and queues nothing: 429 with the rate limit's own copy and
 * Retry-After. A Redis outage lets captures through, as the other limits do.
 */
export function captureGate(
  deps: Pick<RouteDeps, 'config' | 'redis'>,
  captures: (request: FastifyRequest) => boolean = () => true,
): CaptureGate {
  const prefix = `${deps.config.RATE_LIMIT_PREFIX ?? deps.config.QUEUE_PREFIX}:capture-limit:`;
  return async (request, reply) => {
    if (!captures(request)) return;
    let taken: [number, number];
    try {
      taken = (await deps.redis.eval(TAKE, 1, prefix + clientKey(request.ip), captureLimit.windowMs)) as [number, number];
    } catch (error) {
      request.log.warn({ err: error }, 'capture limit not counted: Redis did not answer');
      return;
    }
    const [count, ttl] = taken;
    reply.header('x-capture-limit', captureLimit.max);
    reply.header('x-capture-remaining', Math.max(0, captureLimit.max - count));
    if (count <= captureLimit.max) return;
    reply.header('retry-after', Math.max(1, Math.ceil(ttl / 1000)));
    throw new TooManyRequestsError(waitText(ttl));
  };
}
