import { eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import type { Mailer, MailMessage } from './mailer';

export interface MailQueueOptions {
  db: Db;
  /** What actually sends: SMTP or the outbox folder (mailer.ts). */
  transport: Mailer;
  log: { warn(msg: string): void; error(msg: string): void };
  /** How often the worker looks for due mail besides the wake-up at each new mail. */
  pollMs?: number;
  /** Wait before attempt n + 1 after n failed attempts. */
  backoffMs?: (failedAttempts: number) => number;
  /** Attempts before a mail is given up (and logged). */
  maxAttempts?: number;
  /** How long a claimed mail stays reserved for its worker; past that another worker may take it. */
  leaseMs?: number;
  /**
   * Tests: `send()` also delivers what is due before it returns, so a suite can read what was sent right
   * after the request. Production answers first and sends in the background.
   */
  deliverBeforeReturn?: boolean;
}

/**
 * Builds a queued mail when the worker gets to it; null when there is nothing to send (e.g. no account
 * for the email). Lets a request queue the same row whatever it would find, and answer alike.
 */
export type MailComposer = (data: Record<string, string>) => Promise<MailMessage | null>;

/** A row's content: a ready message, or what a composer needs to build one. */
export type QueuedMail = MailMessage | { compose: string; data: Record<string, string> };

export interface MailQueue extends Mailer {
  /** Queues a mail that the composer registered for `kind` builds in the worker. */
  sendComposed(kind: string, data: Record<string, string>): Promise<void>;
  addComposer(kind: string, composer: MailComposer): void;
  /** Starts the background worker (polling, plus a wake-up at each new mail). */
  start(): void;
  /** Stops the worker and waits for the delivery in progress. */
  stop(): Promise<void>;
  /** Sends everything due now, once; resolves when done (for tests and the worker itself). */
  deliverDue(): Promise<void>;
  /** Mails waiting to be sent (not given up): the metrics' queue depth. */
  depth(): Promise<number>;
}

const BATCH = 10;
/** 5 s, 10 s, 20 s, ... up to 15 min: with 12 attempts a mail is retried for about an hour. */
export const defaultBackoffMs = (failedAttempts: number) =>
  Math.min(5_000 * 2 ** (failedAttempts - 1), 15 * 60_000);

type Claimed = { id: number; message: QueuedMail; attempts: number };

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

/**
 * A durable mail queue with the Mailer interface: `send()` only writes a row, so a request never waits for
 * SMTP (and never fails because SMTP is down, nor answers slower for an existing account). A worker in the
 * server process claims due rows with FOR UPDATE SKIP LOCKED, so several instances never take the same mail,
 * sends them through the transport and retries failures with exponential backoff. A mail is sent at least
 * once: a process dying between the transport's acceptance and the row's deletion sends it again.
 */
export function createMailQueue(o: MailQueueOptions): MailQueue {
  const pollMs = o.pollMs ?? 5_000;
  const backoffMs = o.backoffMs ?? defaultBackoffMs;
  const maxAttempts = o.maxAttempts ?? 12;
  const leaseMs = o.leaseMs ?? 2 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  const composers = new Map<string, MailComposer>();

  /** The message to send: composed once, then stored in the row so a retry sends the same mail. */
  const messageOf = async (row: Claimed): Promise<MailMessage | null> => {
    if (!('compose' in row.message)) return row.message;
    const composer = composers.get(row.message.compose);
    if (!composer) throw new Error(`no composer for "${row.message.compose}" mail`);
    const composed = await composer(row.message.data);
    if (composed) await o.db.update(mailOutbox).set({ message: composed }).where(eq(mailOutbox.id, row.id));
    return composed;
  };

  const claim = async (): Promise<Claimed[]> =>
    rowsOf<Claimed>(
      await o.db.execute(sql`
        UPDATE mail_outbox SET attempts = attempts + 1,
          locked_until = now() + make_interval(secs => ${leaseMs / 1000})
        WHERE id IN (
          SELECT id FROM mail_outbox
          WHERE failed_at IS NULL AND next_attempt_at <= now()
            AND (locked_until IS NULL OR locked_until <= now())
          ORDER BY next_attempt_at, id
          LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, message, attempts`),
    ).map((r) => ({ ...r, id: Number(r.id) }));

  const deliver = async (row: Claimed) => {
    let message: MailMessage | null = null;
    try {
      message = await messageOf(row);
      if (message) await o.transport.send(message);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const givingUp = row.attempts >= maxAttempts;
      await o.db
        .update(mailOutbox)
        .set(
          givingUp
            ? { failedAt: sql`now()`, lastError: error, lockedUntil: null }
            : {
                nextAttemptAt: sql`now() + make_interval(secs => ${backoffMs(row.attempts) / 1000})`,
                lastError: error,
                lockedUntil: null,
              },
        )
        .where(eq(mailOutbox.id, row.id));
      const what = message ? `mail ${row.id} "${message.subject}" to ${message.to}` : `mail ${row.id}`;
      if (givingUp) o.log.error(`gave up on ${what} after ${row.attempts} attempts: ${error}`);
      else o.log.warn(`${what} not sent (attempt ${row.attempts} of ${maxAttempts}), will retry: ${error}`);
      return;
    }
    // Sent (or nothing to send): the row goes, with the links it carried (reset tokens are otherwise stored
    // only as digests).
    await o.db.delete(mailOutbox).where(eq(mailOutbox.id, row.id));
  };

  const deliverAllDue = async () => {
    for (;;) {
      const rows = await claim();
      for (const row of rows) await deliver(row);
      if (rows.length < BATCH) return;
    }
  };

  // One run at a time in this process; callers arriving during a run share the next one, so every caller
  // resolves after a run that started after it called.
  let tail: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  const deliverDue = (): Promise<void> => {
    if (next) return next;
    const run = tail.then(async () => {
      next = undefined;
      try {
        await deliverAllDue();
      } catch (err) {
        o.log.error(`mail queue: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    next = run;
    tail = run;
    return run;
  };

  const enqueue = async (message: QueuedMail) => {
    await o.db.insert(mailOutbox).values({ message });
    if (o.deliverBeforeReturn) await deliverDue();
    // After the current request has answered: on PGlite the worker's queries would hold up the answer, and
    // only the worker's work (not the request's) differs between an existing account and none.
    else if (started) setImmediate(() => void deliverDue());
  };

  return {
    send: enqueue,
    depth: async () => {
      const [row] = await o.db
        .select({ n: sql<number>`count(*)::int` })
        .from(mailOutbox)
        .where(isNull(mailOutbox.failedAt));
      return row?.n ?? 0;
    },
    sendComposed: (kind, data) => enqueue({ compose: kind, data }),
    addComposer(kind, composer) {
      composers.set(kind, composer);
    },
    deliverDue,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void deliverDue(), pollMs);
      timer.unref();
      void deliverDue();
    },
    async stop() {
      started = false;
      clearInterval(timer);
      await tail;
    },
    close() {},
  };
}
