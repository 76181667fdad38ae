import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { Config } from '../config/index.js';

/**
 * Where the server may send the coach's webhooks (lead events, the team-chat message): public
 * addresses only. The body carries lead personal data, so a URL that reaches the machine itself,
 * the private network or a cloud metadata service is refused: at save (the address the URL
 * names or resolves to) and again at send, when the connection is made (request-filtering-agent
 * checks the address actually dialled, which also defeats DNS rebinding). Redirects are never
 * followed. `allowedPrivate` lists addresses (or CIDR ranges) the coach's own network may use, e.g. an
 * automation server at 10.0.0.5; tests list 127.0.0.1 for their loopback receivers.
 */
export interface OutboundPolicy {
  allowedPrivate: string[];
}

export function outboundPolicy(config: Pick<Config, 'WEBHOOK_ALLOWED_PRIVATE_ADDRESSES'>): OutboundPolicy {
  return { allowedPrivate: config.WEBHOOK_ALLOWED_PRIVATE_ADDRESSES };
}

/** A webhook URL the server will not send to, with the reason for the admin. */
export class WebhookTargetError extends Error {}

function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    // an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is
    return ipaddr.process(address);
  } catch {
    return null;
  }
}

/** True when the coach's policy lists the address (itself or a CIDR range holding it). */
function isListed(address: string, policy: OutboundPolicy): boolean {
  const ip = parsed(address);
  return (
    Boolean(ip) &&
    policy.allowedPrivate.some((entry) => {
      try {
        const [range, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), entry.includes(':') ? 128 : 32];
        return range.kind() === ip!.kind() && ip!.match([range, bits] as never);
      } catch {
        return false;
      }
    })
  );
}

/** True for a public unicast address: not loopback, private, link-local, CGNAT, ULA, multicast, reserved or 0.0.0.0. */
function isPublic(address: string): boolean {
  return parsed(address)?.range() === 'unicast';
}

/** Names that only ever mean this machine or a private network (RFC 6761, 6762, 8375) and cloud metadata names. */
function isReservedName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return !name.includes('.') || /(^|\.)(localhost|localdomain|local|internal|intranet|lan|home\.arpa)$/.test(name);
}

/** The addresses a name resolves to now; none when it does not resolve within 3 s (checked again at send). */
async function resolved(host: string): Promise<string[]> {
  try {
    const answers = await Promise.race([
      lookup(host, { all: true, verbatim: true }),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('DNS timeout')), 3000).unref()),
    ]);
    return answers.map((entry) => entry.address);
  } catch {
    return [];
  }
}

const PRIVATE_TARGET = 'That address reaches this server or a private network; the webhook must be on a public server.';

/**
 * Checks a webhook URL before it is saved: https (http only to an address the coach listed), no
 * credentials, not a reserved name, and a host that is, or resolves only to, public addresses. A
 * name that does not resolve yet is accepted: the send-time check is the one that counts. Returns the
 * URL as the WHATWG parser normalises it (so 2130706433, 0177.0.0.1 and 0x7f.1 are all 127.0.0.1).
 */
export async function checkWebhookTarget(value: string, policy: OutboundPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WebhookTargetError('Expected a full https:// address.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookTargetError('Expected an https:// address.');
  if (url.username || url.password) throw new WebhookTargetError('The address must not carry a user name or password.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = ipaddr.isValid(host);
  if (!literal && isReservedName(host)) throw new WebhookTargetError(PRIVATE_TARGET);
  const addresses = literal ? [host] : await resolved(host);
  if (addresses.some((address) => !isPublic(address) && !isListed(address, policy))) throw new WebhookTargetError(PRIVATE_TARGET);
  // lead data never crosses the internet in clear: plain http only to addresses the coach listed
  if (url.protocol === 'http:' && !(addresses.length && addresses.every((address) => isListed(address, policy)))) {
    throw new WebhookTargetError('Expected an https:// address.');
  }
  return url.toString();
}

const agents = new Map<string, { http: http.Agent; https: https.Agent }>();

/** One pair of filtering agents per policy, kept for the process's life. */
function agentsFor(policy: OutboundPolicy) {
  const key = policy.allowedPrivate.join(',');
  let pair = agents.get(key);
  if (!pair) {
    const options = { allowIPAddressList: policy.allowedPrivate, allowPrivateIPAddress: false, allowMetaIPAddress: false };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agents.set(key, pair);
  }
  return pair;
}

/**
 * POSTs `body` to a webhook URL through the filtering agents, never following a redirect; resolves
 * with the status. A refused address, a network failure or no answer within `timeoutMs` rejects.
 */
export function postWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<number> {
  const url = new URL(target);
  const pair = agentsFor(policy);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      agent: url.protocol === 'https:' ? pair.https : pair.http,
      signal: AbortSignal.timeout(timeoutMs),
    });
    request.once('response', (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    request.once('error', reject);
    request.end(body);
  });
}
