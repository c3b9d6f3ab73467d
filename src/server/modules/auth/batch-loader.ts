/**
 * Coalesces concurrent lookups into few calls of `loadMany`: the lookups made while `maxInFlight` calls
 * are already running wait and go together in the next call, so under load the requests share database
 * round trips instead of queueing one query each for a pooled connection (see
 * docs/decisions/081-session-lookup-batching.md). Every caller's answer comes from a query sent after its
 * own call, so nothing is served from memory.
 */
export function createBatchLoader<K, V>(
  loadMany: (keys: K[]) => Promise<Map<K, V>>,
  opts: { maxInFlight?: number; maxBatch?: number } = {},
): (key: K) => Promise<V | undefined> {
  const maxInFlight = opts.maxInFlight ?? 8;
  const maxBatch = opts.maxBatch ?? 256;
  type Waiter = { resolve: (v: V | undefined) => void; reject: (e: unknown) => void };
  let pending = new Map<K, Waiter[]>();
  let inFlight = 0;
  let scheduled = false;

  const dispatch = () => {
    scheduled = false;
    while (pending.size && inFlight < maxInFlight) {
      const batch = pending;
      pending = new Map();
      inFlight++;
      // Free the slot before the callers go on, so the lookups they make next are not held behind it.
      const settled = () => {
        inFlight--;
        schedule();
      };
      loadMany([...batch.keys()]).then(
        (found) => {
          settled();
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        },
        (err) => {
          settled();
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        },
      );
    }
  };
  // setImmediate, not a microtask: it runs after the poll phase that parsed every request ready now.
  const schedule = () => {
    if (!scheduled && pending.size) {
      scheduled = true;
      setImmediate(dispatch);
    }
  };

  return (key) =>
    new Promise((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
      if (pending.size >= maxBatch && inFlight < maxInFlight) dispatch();
      else schedule();
    });
}
