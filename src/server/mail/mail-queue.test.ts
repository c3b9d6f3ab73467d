import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase, resetDatabase } from '../test/harness';
import { createMailQueue } from './mail-queue';
import type { Mailer, MailMessage } from './mailer';
import { smtpMailer } from './mailer';
import { startTestSmtp } from './test-smtp';

const rowsOf = <T>(r: unknown) => ((r as { rows?: T[] }).rows ?? (r as T[])) as T[];
const outbox = async (database: Database) =>
  rowsOf<{ attempts: number; last_error: string | null; failed_at: string | null }>(
    await database.db.execute(sql`select attempts, last_error, failed_at from mail_outbox order by id`),
  );

/** A loopback port nobody listens on (yet). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const quietLog = () => ({
  lines: [] as string[],
  warn(m: string) {
    this.lines.push(m);
  },
  error(m: string) {
    this.lines.push(m);
  },
});
const mail = (n: number): MailMessage => ({
  to: `fan${n}@example.test`,
  subject: `Mail ${n}`,
  text: `Hello ${n}`,
});

for (const kind of ['pglite', 'postgres'] as const) {
  const skipReason = kind === 'postgres' ? inject('postgresSkipReason') : '';
  describe.skipIf(Boolean(skipReason))(
    `mail queue [${kind}]${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await openTestDatabase(kind);
      });
      beforeEach(() => resetDatabase(database));
      afterAll(() => database?.close());

      it('keeps a mail while SMTP is down and delivers it once SMTP is up', async () => {
        const port = await freePort();
        const transport = smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@example.test');
        const log = quietLog();
        const queue = createMailQueue({ db: database.db, transport, log, pollMs: 20, backoffMs: () => 50 });
        queue.start();
        try {
          await queue.send({
            to: 'singer@example.test',
            subject: 'Reset your password',
            text: 'Open the link',
          });
          await vi.waitFor(
            async () => expect((await outbox(database))[0]?.attempts).toBeGreaterThanOrEqual(2),
            {
              timeout: 10_000,
            },
          );
          expect((await outbox(database))[0]?.last_error).toMatch(/ECONNREFUSED/);
          expect(log.lines.some((l) => l.includes('will retry'))).toBe(true);

          const smtp = await startTestSmtp(port);
          try {
            await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000 });
            expect(smtp.received[0]?.to).toEqual(['singer@example.test']);
            expect(smtp.received[0]?.raw).toContain('Subject: Reset your password');
            await vi.waitFor(async () => expect(await outbox(database)).toHaveLength(0));
          } finally {
            await smtp.close();
          }
        } finally {
          await queue.stop();
          transport.close();
        }
      });

      it('gives up after the last attempt, keeps the row marked failed and logs it', async () => {
        const log = quietLog();
        const failing: Mailer = {
          send: async () => Promise.reject(new Error('550 mailbox unavailable')),
          close() {},
        };
        const queue = createMailQueue({
          db: database.db,
          transport: failing,
          log,
          backoffMs: () => 0,
          maxAttempts: 3,
        });
        await queue.send(mail(1));
        expect(await queue.depth()).toBe(1);
        for (let i = 0; i < 5; i++) await queue.deliverDue();
        // Given up: no longer waiting, so no longer counted in the metrics' queue depth.
        expect(await queue.depth()).toBe(0);
        const [row] = await outbox(database);
        expect(row).toMatchObject({ attempts: 3, last_error: '550 mailbox unavailable' });
        expect(row?.failed_at).not.toBeNull();
        expect(log.lines.filter((l) => l.startsWith('gave up on mail'))).toHaveLength(1);
      });

      it('composes a queued mail once in the worker, retries the composed mail, and drops one with nothing to send', async () => {
        const sent: MailMessage[] = [];
        let failNext = true;
        const flaky: Mailer = {
          async send(m) {
            if (failNext) {
              failNext = false;
              throw new Error('421 try again later');
            }
            sent.push(m);
          },
          close() {},
        };
        const queue = createMailQueue({
          db: database.db,
          transport: flaky,
          log: quietLog(),
          backoffMs: () => 0,
        });
        const composed: string[] = [];
        queue.addComposer('greeting', async ({ name = '' }) => {
          composed.push(name);
          return name === 'nobody'
            ? null
            : { to: `${name}@example.test`, subject: `Hi ${name}`, text: 'Hello' };
        });
        await queue.sendComposed('greeting', { name: 'ada' });
        await queue.sendComposed('greeting', { name: 'nobody' });
        for (let i = 0; i < 3; i++) await queue.deliverDue();
        expect(sent).toEqual([{ to: 'ada@example.test', subject: 'Hi ada', text: 'Hello' }]);
        expect(composed).toEqual(['ada', 'nobody']);
        expect(await outbox(database)).toHaveLength(0);
      });

      it('answers send() without waiting for the transport', async () => {
        let release = () => {};
        const held = new Promise<void>((r) => {
          release = r;
        });
        const sent: MailMessage[] = [];
        const slow: Mailer = { send: async (m) => held.then(() => void sent.push(m)), close() {} };
        const queue = createMailQueue({ db: database.db, transport: slow, log: quietLog(), pollMs: 20 });
        queue.start();
        try {
          await queue.send(mail(1));
          expect(sent).toHaveLength(0);
          release();
          await vi.waitFor(() => expect(sent).toHaveLength(1));
        } finally {
          await queue.stop();
        }
      });
    },
  );
}

const pgSkip = inject('postgresSkipReason');
describe.skipIf(Boolean(pgSkip))(
  `mail queue: several workers [postgres]${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
  () => {
    const databases: Database[] = [];
    beforeAll(async () => {
      // Separate pools, as separate server processes would have.
      for (let i = 0; i < 3; i++) databases.push(await openTestDatabase('postgres'));
      await resetDatabase(databases[0]!);
    });
    afterAll(async () => {
      for (const d of databases) await d.close();
    });

    it('never sends one mail twice when workers on several connections run at once', async () => {
      const deliveries = new Map<string, number>();
      const transport: Mailer = {
        async send(m) {
          deliveries.set(m.subject, (deliveries.get(m.subject) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 2));
        },
        close() {},
      };
      const total = 60;
      // Written directly, so no worker starts before all are there.
      for (let i = 0; i < total; i++)
        await databases[0]!.db.execute(
          sql`insert into mail_outbox (message) values (${JSON.stringify(mail(i))}::jsonb)`,
        );
      const workers = [...databases, ...databases].map((d) =>
        createMailQueue({ db: d.db, transport, log: quietLog() }),
      );
      // Each worker drains several times at once, so claims overlap all the time.
      await Promise.all(workers.flatMap((w) => [w.deliverDue(), w.deliverDue(), w.deliverDue()]));
      await Promise.all(workers.map((w) => w.deliverDue()));
      expect(deliveries.size).toBe(total);
      expect([...deliveries.values()].every((n) => n === 1)).toBe(true);
      expect(await outbox(databases[0]!)).toHaveLength(0);
    });
  },
);
