import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { localOutbox } from '../../db/schema';
import type { Tx } from './ledger-service';
import type { ProviderEvent } from './payment-provider';

/** The periodic sweep leaves younger events to the request that wrote them (it delivers them at once). */
const SWEEP_MIN_AGE_MS = 10_000;
const SWEEP_EVERY_MS = 30_000;
const SWEEP_BATCH = 200;

/**
 * The local test provider's transactional outbox (decision 091). A change of the provider's rows and the
 * events announcing it are written in one transaction (`add`), delivered right after the commit (`flush`),
 * and delivered again by the sweep until marked delivered: at start-up (a kill -9 between the commit and the
 * delivery) and periodically (a delivery that failed). The fulfilment applies each event id once, so
 * delivering twice, from two processes at once, or out of order changes nothing.
 */
export function createLocalOutbox(d: {
  db: Db;
  deliver: (event: ProviderEvent) => Promise<unknown>;
  now?: () => Date;
}) {
  const now = d.now ?? (() => new Date());

  const deliverOne = async (event: ProviderEvent) => {
    await d.deliver(event);
    await d.db.update(localOutbox).set({ deliveredAt: now() }).where(eq(localOutbox.id, event.id));
  };

  /** Delivers every undelivered event written at least `minAgeMs` ago, oldest first; returns how many. */
  const sweep = async (minAgeMs = 0): Promise<number> => {
    let delivered = 0;
    for (;;) {
      const pending = await d.db
        .select({ event: localOutbox.event })
        .from(localOutbox)
        .where(
          and(
            isNull(localOutbox.deliveredAt),
            lte(localOutbox.createdAt, new Date(now().getTime() - minAgeMs)),
          ),
        )
        .orderBy(asc(localOutbox.createdAt))
        .limit(SWEEP_BATCH);
      for (const row of pending) await deliverOne(row.event as ProviderEvent);
      delivered += pending.length;
      if (pending.length < SWEEP_BATCH) return delivered;
    }
  };

  return {
    /** Writes events in the caller's transaction: they exist exactly when the change they announce does. */
    async add(tx: Tx, events: ProviderEvent[]): Promise<void> {
      if (events.length) await tx.insert(localOutbox).values(events.map((e) => ({ id: e.id, event: e })));
    },

    /** Delivers events whose transaction has committed. A failure leaves them to the sweep and is rethrown. */
    async flush(events: ProviderEvent[]): Promise<void> {
      for (const event of events) await deliverOne(event);
    },

    sweep,

    /**
     * The start-up sweep now, then a periodic one; failures are logged and retried next time. The returned
     * stop waits for a sweep under way, so the database is not closed beneath it.
     */
    start(log: (msg: string, err?: unknown) => void): () => Promise<void> {
      let running: Promise<unknown> = Promise.resolve();
      const run = (minAgeMs: number) => {
        running = running
          .then(() => sweep(minAgeMs))
          .then(
            (n) => n > 0 && log(`billing outbox: delivered ${n} pending local provider events`),
            (err) => log('billing outbox: delivery failed, retrying at the next sweep', err),
          );
      };
      run(0);
      const timer = setInterval(() => run(SWEEP_MIN_AGE_MS), SWEEP_EVERY_MS);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}
export type LocalOutbox = ReturnType<typeof createLocalOutbox>;
