/**
 * Why a connection to another server failed, in a few words an admin can act on (DNS, refused,
 * TLS, timeout...), with the system's code; null when the error says nothing about the network.
 * Never quotes the address, which can carry a token.
 */
export function networkCause(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout: no answer in time';
  const { code: rawCode, responseCode } = error as { code?: unknown; responseCode?: unknown };
  const code = typeof rawCode === 'string' ? rawCode : '';
  if (typeof responseCode === 'number') return `the server answered ${responseCode}`;
  const tls =
    /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)/.test(code) ||
    ['EPROTO', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'HOSTNAME_MISMATCH', 'ETLS'].includes(code);
  if (tls) return `TLS: the secure connection failed (${code})`;
  const cause = CAUSES[code];
  if (cause) return `${cause} (${code})`;
  // a wrapped failure (fetch's TypeError, nodemailer's) may carry the system error as its cause
  return error.cause && error.cause !== error ? networkCause(error.cause) : null;
}

const CAUSES: Record<string, string> = {
  ENOTFOUND: 'DNS: the host name could not be resolved',
  EAI_AGAIN: 'DNS: the name server did not answer',
  EDNS: 'DNS: the host name could not be resolved',
  ECONNREFUSED: 'connection refused: nothing listens at that address and port',
  ECONNRESET: 'connection reset by the other side',
  EPIPE: 'connection closed by the other side',
  ESOCKET: 'connection closed by the other side',
  ETIMEDOUT: 'timeout: no answer in time',
  ECONNECTION: 'could not connect',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAUTH: 'the server refused the login',
};
