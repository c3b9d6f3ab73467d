/**
 * The hand-over between the two workers of the two-worker mastering render (decision 141): the front of the
 * chain runs in one worker, the back in the other, block by block, on the same SharedArrayBuffer channels.
 * When the chain splits into bands between the halves, the front writes each block's bands into a ring of
 * slots in shared memory and the back reads them from there.
 *
 * Control words (Int32Array on a SharedArrayBuffer): frames produced by the front, frames consumed by the back,
 * and a stop flag (set on cancel or when either side fails). Both sides wait with Atomics.wait in short slices
 * and look at the stop flag between them, so a cancel or a failure never leaves the other worker blocked.
 *
 * A waiting side also says how far it would like the other to get before it is woken (two more words), and
 * the other notifies only once it is there: the waiter then takes several blocks in a row instead of being
 * woken for each. A notify that wakes a thread cost about 0.3 ms per block on two busy cores (Chromium's
 * profile of the render: 750 ms of the front's time in `publish` at 4 minutes, decision 295). The words only
 * choose when to notify: which frames a side may touch is decided by the produced and consumed counts as before, and a wait never
 * lasts longer than its slice, so a notify held back can delay a side but never change what it computes.
 */

const PRODUCED = 0;
const CONSUMED = 1;
const STOP = 2;
/** The produced count the back waits for (0: not waiting), and the consumed count the front waits for. */
const WANT_PRODUCED = 3;
const WANT_CONSUMED = 4;
/**
 * The input arriving while the front runs (decision 304): a flag (0: the channels were all there before the
 * render), the frames copied in so far, and the count the front waits for.
 */
const STREAMING = 5;
const COPIED = 6;
const WANT_COPIED = 7;
const WORDS = 8;
/** Blocks a waiting side lets the other get ahead by before it is woken (at most RING_SLOTS - 1). */
export const WAKE_BATCH = 4;

/** Slots in the ring: the front may run this many blocks ahead of the back. */
export const RING_SLOTS = 8;
/** Bands carried per block (the multiband crossover's three). */
const BANDS = 3;
/** How long one wait lasts before the stop flag is looked at again, ms. */
const WAIT_SLICE_MS = 20;

export interface HandoverMemory {
  control: SharedArrayBuffer;
  /** RING_SLOTS x BANDS x channels x block floats; absent when the halves hand over the channels only. */
  ring: SharedArrayBuffer | null;
  block: number;
  channels: number;
}

export const createHandoverMemory = (
  channels: number,
  block: number,
  withBands: boolean,
): HandoverMemory => ({
  control: new SharedArrayBuffer(WORDS * 4),
  ring: withBands ? new SharedArrayBuffer(RING_SLOTS * BANDS * channels * block * 4) : null,
  block,
  channels,
});

/** Thrown in a worker when the other side stopped the render (cancel or failure). */
export class HandoverStopped extends Error {
  override name = 'AbortError';
}

export class BlockHandover {
  readonly #control: Int32Array;
  /** slots[s][b][c]: views of the ring. */
  readonly #slots: Float32Array[][][];
  readonly #block: number;

  constructor(memory: HandoverMemory) {
    this.#control = new Int32Array(memory.control);
    this.#block = memory.block;
    const ring = memory.ring;
    const size = memory.block;
    this.#slots = ring
      ? Array.from({ length: RING_SLOTS }, (_, s) =>
          Array.from({ length: BANDS }, (_, b) =>
            Array.from(
              { length: memory.channels },
              (_, c) => new Float32Array(ring, ((s * BANDS + b) * memory.channels + c) * size * 4, size),
            ),
          ),
        )
      : [];
  }

  get stopped(): boolean {
    return Atomics.load(this.#control, STOP) !== 0;
  }

  /** Stops both sides (a cancel from the page, or a failure on either side). */
  stop(): void {
    Atomics.store(this.#control, STOP, 1);
    Atomics.notify(this.#control, PRODUCED);
    Atomics.notify(this.#control, CONSUMED);
    Atomics.notify(this.#control, COPIED);
  }

  /** The ring slot of the block starting at `start` (bands x channels), or undefined without a ring. */
  slot(start: number): Float32Array[][] | undefined {
    if (this.#slots.length === 0) return undefined;
    return this.#slots[Math.floor(start / this.#block) % RING_SLOTS];
  }

  /**
   * Front: waits until the slot for the block starting at `start` is free (the back consumed it), asking to
   * be woken once WAKE_BATCH - 1 more are (the back can always get there: they were produced before).
   */
  waitForSpace(start: number): void {
    if (this.#slots.length === 0) return;
    const need = start - (RING_SLOTS - 1) * this.#block;
    this.#waitUntil(CONSUMED, need, WANT_CONSUMED, need + (WAKE_BATCH - 1) * this.#block);
  }

  /** Page: the channels are copied in while the front runs; `inputCopied` says how far (decision 304). */
  streamInput(): void {
    Atomics.store(this.#control, STREAMING, 1);
  }

  /** Page: the frames before `end` are in the shared channels. */
  inputCopied(end: number): void {
    this.#advance(COPIED, WANT_COPIED, end);
  }

  /** Front: waits until the frames before `end` are in the shared channels (at once unless streamed in). */
  waitForInput(end: number): void {
    if (Atomics.load(this.#control, STREAMING) === 0) return;
    this.#waitUntil(COPIED, end, WANT_COPIED, end);
  }

  /** Front: the frames before `end` are processed (and their bands are in the ring). */
  publish(end: number): void {
    this.#advance(PRODUCED, WANT_PRODUCED, end);
  }

  /**
   * Back: waits until the front has produced the frames before `end`, asking to be woken once the front
   * reaches `wakeAt` (at most the track's length; default `end`).
   */
  waitForBlock(end: number, wakeAt = end): void {
    this.#waitUntil(PRODUCED, end, WANT_PRODUCED, Math.max(end, wakeAt));
  }

  /** Back: the frames before `end` are done with (their ring slots may be reused). */
  release(end: number): void {
    this.#advance(CONSUMED, WANT_CONSUMED, end);
  }

  /** Stores a count and notifies only when the other side waits for no more than it (or does not say). */
  #advance(word: number, want: number, value: number): void {
    Atomics.store(this.#control, word, value);
    const wanted = Atomics.load(this.#control, want);
    if (wanted === 0 || value >= wanted) Atomics.notify(this.#control, word);
  }

  #waitUntil(word: number, value: number, want: number, wakeAt: number): void {
    let asked = false;
    for (;;) {
      if (this.stopped) throw new HandoverStopped('The render was stopped.');
      const now = Atomics.load(this.#control, word);
      if (now >= value) {
        if (asked) Atomics.store(this.#control, want, 0);
        return;
      }
      // Said before the count is read again (both sequentially consistent): either the other side sees the
      // wish when it stores a count at or past it, or this side sees that count and does not sleep on it.
      if (!asked) {
        Atomics.store(this.#control, want, wakeAt);
        asked = true;
        continue;
      }
      Atomics.wait(this.#control, word, now, WAIT_SLICE_MS);
    }
  }
}
