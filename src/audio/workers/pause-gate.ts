/**
 * A pause gate: one Int32 on shared memory that the page closes while jobs the user waits for (the mixer's
 * previews and mixdown) need the cores, and that a background worker holds at while it is closed, at the
 * checkpoints its job passes between blocks (decision 296).
 *
 * Why: on two cores the page, the previews' worker and one background analysis are three busy threads; the
 * page's 14-20 ms tasks lasted 60-90 ms on the wall waiting for a core, and the mixdown of a 10-minute song
 * took 6-15 s with an analysis beside it against 3-4 s without (e2e/mixer-longtask.spec.ts). A job already
 * running cannot be moved off a core any other way: an abort reaches a worker only when it next reads its
 * messages, and terminating it throws away what it has done.
 *
 * The gate is a plain value, not a count: the page's CoreBudget decides when it is closed. A worker holds with
 * Atomics.wait (a worker may block; its job is synchronous between checkpoints anyway) and wakes at once when
 * the page opens the gate and notifies.
 */
export type PauseGate = Int32Array;

const OPEN = 0;
const CLOSED = 1;
/** How long one wait lasts before the gate is read again (a missed notify costs at most this). */
const RECHECK_MS = 250;

/** A gate on shared memory, or null where the page has none (not cross-origin isolated). */
export const createPauseGate = (): PauseGate | null =>
  typeof SharedArrayBuffer !== 'undefined' &&
  (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true
    ? new Int32Array(new SharedArrayBuffer(4))
    : null;

export const setGateClosed = (gate: PauseGate, closed: boolean): void => {
  Atomics.store(gate, 0, closed ? CLOSED : OPEN);
  if (!closed) Atomics.notify(gate, 0);
};

export const gateClosed = (gate: PauseGate): boolean => Atomics.load(gate, 0) === CLOSED;

/**
 * A worker's checkpoint: returns at once while the gate is open (or there is none), else blocks this thread
 * until it opens. Never call it on a page's main thread (browsers refuse Atomics.wait there).
 */
export const holdAtGate = (gate: PauseGate | undefined): void => {
  if (!gate) return;
  while (Atomics.load(gate, 0) === CLOSED) Atomics.wait(gate, 0, CLOSED, RECHECK_MS);
};
