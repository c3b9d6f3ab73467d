/**
 * The loudness solve's block true peaks shared by the two workers of the two-worker render (decision 317).
 * The solve runs in one worker (the back) and asks for the true peaks of more blocks at every gain it tries
 * (BlockTruePeaks.ensure); each ask is cut into chunks of blocks that both workers claim from a shared counter
 * until none is left, so the work splits by what each worker gets through, not by a fixed cut (the blocks
 * that need the interpolator bunch where the music is loud). Each block's true peak depends on the samples
 * alone (block-true-peaks.ts), so who computes which chunk changes nothing in the result. An ask can also be
 * the later part of a limiter plan (limiter-plan-split.ts, decision 318), one unit the helper takes.
 *
 * Control words (Int32Array on a SharedArrayBuffer): the claim word (the ask's number times CLAIM_SPAN plus
 * the next unclaimed chunk), the chunks finished, and a close flag (the solve is done,
 * or the render stopped). The gain asked for sits beside them (Float64Array). A claim is a compare-exchange
 * of the whole claim word, so a helper still holding an older ask's number can never take a chunk of a newer
 * ask; the asker starts a new ask only once every chunk of the last one is finished, so the gain a claimed
 * chunk reads cannot change under it.
 */
import { HandoverStopped } from './block-handover';
import { type PlanSplitMemory, resetPlanSplit } from './limiter-plan-split';

const CLAIM = 0;
const FINISHED = 1;
const CLOSED = 2;
/** What the ask is: block true peaks in chunks (0), or the later part of a limiter plan (1, one unit). */
const KIND = 3;
const WORDS = 4;
/** Chunk indices per ask live under this; asks are numbered above it. */
const CLAIM_SPAN = 1 << 16;
/** Blocks per chunk at least (2048 blocks = 32768 frames): about a millisecond of interpolation at most. */
const CHUNK_BLOCKS = 2048;
/** How long one wait lasts before the close flag is looked at again, ms. */
const WAIT_SLICE_MS = 20;

export interface PeakShareMemory {
  control: SharedArrayBuffer;
  gain: SharedArrayBuffer;
  /** Where the limiter plans are cut in time too (decision 318). */
  plan: PlanSplitMemory | null;
}

export const createPeakShareMemory = (plan: PlanSplitMemory | null = null): PeakShareMemory => ({
  control: new SharedArrayBuffer(WORDS * 4),
  gain: new SharedArrayBuffer(8),
  plan,
});

/** Closes a share from anywhere (the page on a cancel or a failure): both sides stop waiting on it. */
export const closePeakShare = (memory: PeakShareMemory): void => {
  const control = new Int32Array(memory.control);
  Atomics.store(control, CLOSED, 1);
  Atomics.notify(control, CLAIM);
  Atomics.notify(control, FINISHED);
};

/** `work(gain, from, to)`: the true peaks at `gain` of blocks [from, to). */
export type RangeWork = (gain: number, from: number, to: number) => void;

export class PeakShare {
  readonly #control: Int32Array;
  readonly #gain: Float64Array;
  readonly #blocks: number;
  readonly #chunk: number;
  readonly #chunks: number;

  /** `blocks`: the same count on both sides (the solve's block peaks). */
  constructor(memory: PeakShareMemory, blocks: number) {
    this.#control = new Int32Array(memory.control);
    this.#gain = new Float64Array(memory.gain);
    this.#blocks = blocks;
    this.#chunk = Math.max(CHUNK_BLOCKS, Math.ceil(blocks / (CLAIM_SPAN - 1)));
    this.#chunks = Math.ceil(blocks / this.#chunk);
  }

  get closed(): boolean {
    return Atomics.load(this.#control, CLOSED) !== 0;
  }

  /** The asker: runs `work` at `gain` over all blocks with the helper, and returns once every chunk is done. */
  run(gain: number, work: RangeWork): void {
    const ask = this.#open(gain, 0);
    this.#claimAll(ask, this.#chunks, work);
    this.#waitFinished(this.#chunks);
  }

  /**
   * The asker: opens a limiter plan at `gain` whose later part the helper takes (limiter-plan-split.ts); the
   * asker plans from the start meanwhile, then `settlePlan`.
   */
  openPlan(gain: number, memory: PlanSplitMemory): void {
    resetPlanSplit(memory);
    this.#open(gain, 1);
  }

  /**
   * Returns once the helper's part of the plan is over (the asker told it to stop first), or at once if the
   * helper had not begun it: the asker claims it, so it never will. The next ask may then open.
   */
  settlePlan(): void {
    const control = this.#control;
    const word = Atomics.load(control, CLAIM);
    const ask = Math.floor(word / CLAIM_SPAN);
    if (word === ask * CLAIM_SPAN && Atomics.compareExchange(control, CLAIM, word, word + 1) === word) return;
    this.#waitFinished(1);
  }

  /** Opens ask number last + 1 of `kind` at `gain`. */
  #open(gain: number, kind: number): number {
    const control = this.#control;
    const ask = Math.floor(Atomics.load(control, CLAIM) / CLAIM_SPAN) + 1;
    // Written before the claim word that opens the ask: a helper that claims a chunk of it sees them.
    this.#gain[0] = gain;
    Atomics.store(control, FINISHED, 0);
    Atomics.store(control, KIND, kind);
    Atomics.store(control, CLAIM, ask * CLAIM_SPAN);
    Atomics.notify(control, CLAIM);
    return ask;
  }

  #waitFinished(units: number): void {
    const control = this.#control;
    for (;;) {
      const finished = Atomics.load(control, FINISHED);
      if (finished >= units) return;
      if (this.closed) throw new HandoverStopped('The render was stopped.');
      Atomics.wait(control, FINISHED, finished, WAIT_SLICE_MS);
    }
  }

  /**
   * The helper: takes part in every ask until the share is closed, true peaks with `work`, a plan's later part
   * with `plan`. `idle` runs once, after the helper's part of the second ask (the first limiter plan's when
   * plans are split, decision 318: that part must begin at once to be of use, the next true peaks' need not).
   */
  serve(work: RangeWork, plan: (gain: number) => void, idle?: () => void): void {
    const control = this.#control;
    let served = 0;
    let idleDone = !idle;
    for (;;) {
      const word = Atomics.load(control, CLAIM);
      const ask = Math.floor(word / CLAIM_SPAN);
      if (ask > served) {
        if (Atomics.load(control, KIND) === 0) this.#claimAll(ask, this.#chunks, work);
        else this.#claimAll(ask, 1, (gain) => plan(gain));
        served = ask;
        if (!idleDone && served >= 2) {
          idleDone = true;
          idle?.();
        }
        continue;
      }
      if (this.closed) return;
      Atomics.wait(control, CLAIM, word, WAIT_SLICE_MS);
    }
  }

  /** Ends the helper's `serve` (the asker, when its solve is done or failed). */
  close(): void {
    Atomics.store(this.#control, CLOSED, 1);
    Atomics.notify(this.#control, CLAIM);
    Atomics.notify(this.#control, FINISHED);
  }

  /** Claims chunks of ask `ask` one at a time until none is left, a newer ask has begun or the share closed. */
  #claimAll(ask: number, chunks: number, work: RangeWork): void {
    const control = this.#control;
    for (;;) {
      if (this.closed) return;
      const word = Atomics.load(control, CLAIM);
      const index = word - ask * CLAIM_SPAN;
      if (index < 0 || index >= chunks) return;
      if (Atomics.compareExchange(control, CLAIM, word, word + 1) !== word) continue;
      const from = index * this.#chunk;
      work(this.#gain[0]!, from, Math.min(this.#blocks, from + this.#chunk));
      if (Atomics.add(control, FINISHED, 1) + 1 === chunks) Atomics.notify(control, FINISHED);
    }
  }
}
