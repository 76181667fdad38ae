import { createTransport } from 'nodemailer';
import type { Config } from '../config/index.js';

/** One message as it goes to the SMTP server. */
interface OutgoingEmail {
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers, e.g. List-Unsubscribe; nodemailer keeps its own (From, Message-ID) as they are. */
  headers: Record<string, string>;
}

/** Hands one message to the mail provider; resolves with the provider's message id. */
export type SendEmail = (email: OutgoingEmail) => Promise<string>;

/**
 * The SMTP sender for SMTP_URL (from EMAIL_FROM), or null when none is configured, in which case
 * the outbox row is the delivery. Timeouts are short so a dead provider fails the job (and BullMQ
 * retries it) instead of holding a worker for nodemailer's default ten minutes. The URL carries
 * the credentials: it is handed to nodemailer and never logged or put into an error.
 */
export function smtpSender(config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM'>): SendEmail | null {
  const url = config.SMTP_URL;
  if (!url) return null;
  return async (email) => {
    const transport = createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    try {
      const info = await transport.sendMail({
        from: config.EMAIL_FROM,
        to: email.to,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        headers: email.headers,
      });
      return info.messageId;
    } finally {
      transport.close();
    }
  };
}
