import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  port: number;
  /** Messages fully received (and acknowledged). */
  received: Array<{ from: string; to: string[]; raw: string }>;
  /** Recipients of messages whose data is being held (see `hold`). */
  holding: string[][];
  /** Lets every held message (and all later ones) through. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback for tests (the message goes over the wire, as in production). With
 * `hold`, it reads each message but does not acknowledge it until `release()`: a slow mail server.
 */
export async function startTestSmtp(port = 0, opts: { hold?: boolean } = {}): Promise<TestSmtp> {
  const received: TestSmtp['received'] = [];
  const holding: string[][] = [];
  let open: () => void = () => {};
  const gate = opts.hold
    ? new Promise<void>((resolve) => {
        open = resolve;
      })
    : Promise.resolve();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        holding.push(to);
        void gate.then(() => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to,
            raw,
          });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    holding,
    release: () => open(),
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.close(() => resolve());
      }),
  };
}
