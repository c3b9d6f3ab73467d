import { and, asc, eq, inArray, isNull, lt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { localOutbox } from '../../db/schema';
import type { Tx } from './ledger-service';
import type { ProviderEvent } from './payment-provider';

/** The periodic sweep leaves younger events to the request that wrote them (it delivers them at once). */
const SWEEP_MIN_AGE_MS = 10_000;
const SWEEP_BATCH = 200;
/**
 * Delivered events are kept this long (to look into a delivery), then deleted by the periodic sweep: the
 * fulfilment's own record of applied event ids (payment_events) is what keeps a late redelivery harmless,
 * so the outbox does not have to grow with every payment forever.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3600_000;
const PRUNE_BATCH = 1000;

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

  /** Deletes events delivered more than `retentionMs` ago, a batch at a time; returns how many. */
  const prune = async (retentionMs = OUTBOX_RETENTION_MS): Promise<number> => {
    const before = new Date(now().getTime() - retentionMs);
    let deleted = 0;
    for (;;) {
      const old = d.db
        .select({ id: localOutbox.id })
        .from(localOutbox)
        .where(lt(localOutbox.deliveredAt, before))
        .limit(PRUNE_BATCH);
      const gone = await d.db
        .delete(localOutbox)
        .where(inArray(localOutbox.id, old))
        .returning({ id: localOutbox.id });
      deleted += gone.length;
      if (gone.length < PRUNE_BATCH) return deleted;
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
    prune,

    /**
     * The start-up sweep now, then one every `everyMs` (LOCAL_OUTBOX_SWEEP_SECONDS) that also prunes old
     * delivered events; failures are logged and retried next time. The returned
     * stop waits for a sweep under way, so the database is not closed beneath it.
     */
    start(log: (msg: string, err?: unknown) => void, everyMs: number): () => Promise<void> {
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
      const timer = setInterval(() => {
        run(SWEEP_MIN_AGE_MS);
        running = running
          .then(() => prune())
          .then(
            (n) => n > 0 && log(`billing outbox: deleted ${n} events delivered over a week ago`),
            (err) => log('billing outbox: pruning failed, retrying at the next sweep', err),
          );
      }, everyMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}
export type LocalOutbox = ReturnType<typeof createLocalOutbox>;
