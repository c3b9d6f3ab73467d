import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Real delivery through SMTP (SMTP_URL). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from, ...m });
    },
    close: () => transport.close(),
  };
}

/**
 * Without SMTP every message is written to DATA_DIR/outbox as JSON and its links are logged, so someone
 * running the app locally can still follow a password-reset link.
 */
export function outboxMailer(dir: string, from: string, log: (line: string) => void): Mailer {
  let seq = 0;
  return {
    async send(m) {
      await fs.mkdir(dir, { recursive: true });
      const name = `${Date.now()}-${String(++seq).padStart(4, '0')}-${process.pid}.json`;
      await fs.writeFile(
        path.join(dir, name),
        JSON.stringify({ from, ...m, date: new Date().toISOString() }, null, 2),
      );
      const links = m.text.match(/https?:\/\/\S+/g) ?? [];
      log(
        `Mail to ${m.to} "${m.subject}" written to ${path.join(dir, name)}${links.length ? ` — link: ${links.join(' ')}` : ''}`,
      );
    },
    close: () => {},
  };
}
