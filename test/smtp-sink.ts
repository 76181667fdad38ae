import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/*
 * Test support (imported by tests only; smtp-server is a dev dependency): a real SMTP server on a
 * loopback port that keeps what it receives, decoded just enough to assert on.
 */

/** One received message. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface SmtpSink {
  /** SMTP_URL for the sink, with the given credentials when asked for. */
  url: string;
  messages: ReceivedMail[];
  /** MAIL FROM commands seen, including refused deliveries. */
  attempts: number;
  close(): Promise<void>;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): Part {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

function param(header: string | undefined, name: string): string | undefined {
  const match = header?.match(new RegExp(`${name}="?([^";]+)"?`, 'i'));
  return match?.[1];
}

function decodeWords(text: string): string {
  return text.replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=\s*/gi, (_, _charset: string, encoding: string, data: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(part: Part): Buffer {
  const encoding = part.headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const bytes = part.body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1');
  }
  return Buffer.from(part.body, 'latin1');
}

function collectParts(part: Part, mail: ReceivedMail): void {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = param(type, 'boundary');
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collectParts(splitPart(section.replace(/^\r\n/, '')), mail);
    }
    return;
  }
  const disposition = part.headers.get('content-disposition');
  const filename = param(disposition, 'filename') ?? param(type, 'name');
  if (filename) {
    mail.attachments.push({ filename: decodeWords(filename), contentType: type.split(';')[0]!.trim(), content: decodeBody(part) });
  } else if (type.startsWith('text/html')) {
    mail.html += decodeBody(part).toString('utf8');
  } else if (type.startsWith('text/plain')) {
    mail.text += decodeBody(part).toString('utf8');
  }
}

/** Parses a raw message (read as latin1, byte for byte) into headers, text, html and attachments. */
function parseMail(raw: string, envelopeFrom = '', envelopeTo: string[] = []): ReceivedMail {
  const top = splitPart(raw);
  const mail: ReceivedMail = {
    envelopeFrom,
    envelopeTo,
    headers: top.headers,
    subject: decodeWords(top.headers.get('subject') ?? ''),
    text: '',
    html: '',
    attachments: [],
  };
  collectParts(top, mail);
  return mail;
}

/**
 * Starts an SMTP server on 127.0.0.1 and an ephemeral port. With `reject`, senders are refused with
 * a permanent 550 (a provider turning mail away): every one, or the first `rejectFirst` of them;
 * credentials in the URL are accepted as given.
 */
export async function startSmtpSink(
  options: { reject?: string; rejectFirst?: number; credentials?: { user: string; password: string } } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const sink = { messages, attempts: 0 } as SmtpSink;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.credentials?.user && auth.password === options.credentials?.password;
      callback(ok ? null : new Error('Invalid credentials'), ok ? { user: auth.username } : undefined);
    },
    onMailFrom(_address, _session, callback) {
      sink.attempts += 1;
      if (!options.reject || sink.attempts > (options.rejectFirst ?? Infinity)) return callback();
      callback(Object.assign(new Error(options.reject), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push(
          parseMail(
            Buffer.concat(chunks).toString('latin1'),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const auth = options.credentials
    ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.password)}@`
    : '';
  sink.url = `smtp://${auth}127.0.0.1:${port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
