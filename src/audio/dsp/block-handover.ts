/**
 * The hand-over between the two workers of the two-worker mastering render (decision 141): the front of the
 * chain runs in one worker, the back in the other, block by block, on the same SharedArrayBuffer channels.
 * When the chain splits into bands between the halves, the front writes each block's bands into a ring of
 * slots in shared memory and the back reads them from there.
 *
 * Control words (Int32Array on a SharedArrayBuffer): frames produced by the front, frames consumed by the back,
 * and a stop flag (set on cancel or when either side fails). Both sides wait with Atomics.wait in short slices
 * and look at the stop flag between them, so a cancel or a failure never leaves the other worker blocked.
 */

const PRODUCED = 0;
const CONSUMED = 1;
const STOP = 2;
const WORDS = 3;

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
  }

  /** The ring slot of the block starting at `start` (bands x channels), or undefined without a ring. */
  slot(start: number): Float32Array[][] | undefined {
    if (this.#slots.length === 0) return undefined;
    return this.#slots[Math.floor(start / this.#block) % RING_SLOTS];
  }

  /** Front: waits until the slot for the block starting at `start` is free (the back consumed it). */
  waitForSpace(start: number): void {
    if (this.#slots.length === 0) return;
    this.#waitUntil(CONSUMED, start - (RING_SLOTS - 1) * this.#block);
  }

  /** Front: the frames before `end` are processed (and their bands are in the ring). */
  publish(end: number): void {
    Atomics.store(this.#control, PRODUCED, end);
    Atomics.notify(this.#control, PRODUCED);
  }

  /** Back: waits until the front has produced the frames before `end`. */
  waitForBlock(end: number): void {
    this.#waitUntil(PRODUCED, end);
  }

  /** Back: the frames before `end` are done with (their ring slots may be reused). */
  release(end: number): void {
    Atomics.store(this.#control, CONSUMED, end);
    Atomics.notify(this.#control, CONSUMED);
  }

  #waitUntil(word: number, value: number): void {
    for (;;) {
      if (this.stopped) throw new HandoverStopped('The render was stopped.');
      const now = Atomics.load(this.#control, word);
      if (now >= value) return;
      Atomics.wait(this.#control, word, now, WAIT_SLICE_MS);
    }
  }
}
