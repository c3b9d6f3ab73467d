/**
 * A one-channel cascade of biquads run one block behind itself (decision 290): its first half of sections
 * filters block j while its second half filters block j - 1, the two halves side by side in the SIMD lanes
 * of BiquadCascade.processLanes. A mono cascade otherwise waits on one recursion at a time (each sample on
 * the previous one, each section on the one before it); two independent recursions per instruction halve
 * that. Every section still sees the same blocks, in the same order, with its state flushed at the same
 * borders, so the output is bit for bit that of `BiquadCascade.process` over the same blocks.
 */
import { BiquadCascade, type BiquadCoefficients } from './biquad';

/** A range of the data whose samples have been through every section. */
export interface FinishedRange {
  start: number;
  end: number;
}

export class PipelinedCascade {
  readonly #a: BiquadCascade;
  readonly #b: BiquadCascade;
  /** The section left over when the count is odd (runs after the second half, on the block behind). */
  readonly #rest: BiquadCascade | null;
  #pending: FinishedRange | null = null;

  constructor(sections: readonly BiquadCoefficients[]) {
    const half = sections.length >> 1;
    const cascade = (list: readonly BiquadCoefficients[]) => {
      const c = new BiquadCascade(list.length, 1);
      for (const [i, s] of list.entries()) c.setSection(i, s);
      return c;
    };
    this.#a = cascade(sections.slice(0, half));
    this.#b = cascade(sections.slice(half, 2 * half));
    this.#rest = sections.length % 2 ? cascade(sections.slice(2 * half)) : null;
  }

  /**
   * Takes block [start, end) of `data` (the next block after the last one pushed, same array) and returns the
   * block it finished: the one before it, or null for the first. `finish` returns the last one.
   */
  push(data: Float32Array, start: number, end: number): FinishedRange | null {
    const prev = this.#pending;
    this.#pending = { start, end };
    if (this.#a.sections === 0) return this.finish(data);
    if (prev) {
      // The pair of blocks is one range for the lanes only when each half gets its own samples: the
      // first half's block j and the second half's block j - 1, the same length each time but the last.
      if (prev.end - prev.start === end - start) {
        BiquadCascade.processLanes(
          this.#a,
          data.subarray(start, end),
          this.#b,
          data.subarray(prev.start, prev.end),
        );
      } else {
        this.#b.process(data, 0, prev.start, prev.end);
        this.#a.process(data, 0, start, end);
      }
      this.#rest?.process(data, 0, prev.start, prev.end);
    } else this.#a.process(data, 0, start, end);
    return prev;
  }

  /** Finishes the block still half-filtered, if any, and returns it. */
  finish(data: Float32Array): FinishedRange | null {
    const last = this.#pending;
    this.#pending = null;
    if (!last) return null;
    if (this.#b.sections > 0) this.#b.process(data, 0, last.start, last.end);
    this.#rest?.process(data, 0, last.start, last.end);
    return last;
  }
}
