import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMailer, smtpMailer } from './mailer';

describe('mail', () => {
  const received: Array<{ from: string; to: string[]; raw: string }> = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    // A real SMTP server on loopback: the message goes over the wire, as in production.
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => {
          raw += chunk.toString();
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers through SMTP with the link intact', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, 'Master Your Mix <no-reply@example.test>');
    const link = 'http://app.test/reset-password?token=abcDEF123_-xyz';
    await mailer.send({ to: 'singer@example.test', subject: 'Reset your password', text: `Open ${link}\n` });
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toBe('no-reply@example.test');
    expect(received[0]?.to).toEqual(['singer@example.test']);
    expect(received[0]?.raw).toContain('Subject: Reset your password');
    expect(received[0]?.raw.replace(/=\r?\n/g, '')).toContain(link);
  });

  it('writes to the outbox folder and logs the link when no SMTP is configured', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const lines: string[] = [];
    const mailer = outboxMailer(dir, 'from@example.test', (l) => lines.push(l));
    await mailer.send({
      to: 'a@example.test',
      subject: 'Hi',
      text: 'Go to http://localhost:3000/reset-password?token=t0k3n now',
    });
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), 'utf8'));
    expect(stored).toMatchObject({ to: 'a@example.test', subject: 'Hi', from: 'from@example.test' });
    expect(lines[0]).toContain('http://localhost:3000/reset-password?token=t0k3n');
  });
});
