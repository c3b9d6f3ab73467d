/**
 * One export split over several workers at once (MP3 segments, WAV halves): the pieces share one cancel, the
 * first failure (a crash, a cancel) cancels the others and is the error reported, and progress is the
 * length-weighted sum of the pieces'.
 */
export class ParallelJobs {
  readonly #jobs = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #stop = () => this.#jobs.abort(this.#outer?.reason);
  readonly #done: number[];
  readonly #weights: number[];
  readonly #onProgress: ((fraction: number) => void) | undefined;
  #failure: unknown;

  /** `lengths`: the size of each piece (its share of the progress). */
  constructor(lengths: number[], signal?: AbortSignal, onProgress?: (fraction: number) => void) {
    signal?.throwIfAborted();
    this.#outer = signal;
    signal?.addEventListener('abort', this.#stop, { once: true });
    const total = lengths.reduce((a, b) => a + b, 0);
    this.#weights = lengths.map((l) => l / total);
    this.#done = lengths.map(() => 0);
    this.#onProgress = onProgress;
  }

  /** The signal every piece runs under. */
  get signal(): AbortSignal {
    return this.#jobs.signal;
  }

  /** Progress callback of piece `i`. */
  progress(i: number): (fraction: number) => void {
    return (f) => {
      this.#done[i] = f;
      const total = this.#done.reduce((sum, d, k) => sum + d * this.#weights[k]!, 0);
      this.#onProgress?.(Math.min(1, total));
    };
  }

  /** Watches a started piece: its failure cancels the others at once. */
  track<T>(job: Promise<T>): Promise<T> {
    job.catch((error: unknown) => {
      this.#failure ??= error;
      this.#stop();
    });
    return job;
  }

  /** Every piece's result, or the first failure (not the cancels it caused). */
  all<T>(jobs: Promise<T>[]): Promise<T[]> {
    return Promise.all(jobs).catch((error: unknown) => {
      throw this.#failure ?? error;
    });
  }

  /** Detaches from the caller's signal (call when the pieces are done). */
  dispose(): void {
    this.#outer?.removeEventListener('abort', this.#stop);
  }
}
