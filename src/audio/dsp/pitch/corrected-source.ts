/**
 * The vocal source with its pitch corrected, computed lazily a chunk at a time (issue 27, decision 260): the
 * live AudioWorklet fills only the chunks the playhead reaches, and a new correction curve only marks every
 * chunk stale (no whole-source pass on the audio thread). Each chunk is the offline shifter's own output for
 * those samples (renderRunSpan), so the corrected source equals psolaShift's, sample for sample.
 */
import { edgeFadeSamples, type GrainPlan, type PsolaRun, planGrains, renderRunSpan } from './psola';

/** Samples per lazily corrected chunk: a few grains' worth, a fraction of a millisecond of work. */
export const CORRECTED_CHUNK = 2048;

/** What the worker hands the live path for one correction curve: the runs' marks and their grain plans. */
export interface LivePitchPlan {
  hop: number;
  sampleRate: number;
  runs: PsolaRun[];
  /** One per run: null where the run stays dry (ratio 1 all over it, as at amount 0). */
  plans: (GrainPlan | null)[];
}

/** The live plan for a correction curve's per-frame ratio (made in the worker, beside the curve). */
export const livePitchPlan = (
  runs: PsolaRun[],
  ratio: Float32Array,
  hop: number,
  sampleRate: number,
): LivePitchPlan => ({ hop, sampleRate, runs, plans: runs.map((run) => planGrains(run, ratio, hop)) });

export class CorrectedSource {
  readonly source: readonly Float32Array[];
  /** The corrected samples; valid where `ensure` has been called since the last plan. */
  readonly channels: Float32Array[];
  #fresh: Uint8Array;
  /** Per chunk, the largest |corrected - source| (how far the correction moved those samples). */
  readonly #moved: Float32Array;
  #plan: LivePitchPlan | null = null;
  #fade: number;

  constructor(source: readonly Float32Array[], sampleRate: number) {
    this.source = source;
    const length = source[0]?.length ?? 0;
    this.channels = source.map(() => new Float32Array(length));
    this.#fresh = new Uint8Array(Math.ceil(length / CORRECTED_CHUNK));
    this.#moved = new Float32Array(this.#fresh.length);
    this.#fade = edgeFadeSamples(sampleRate);
  }

  get length(): number {
    return this.source[0]?.length ?? 0;
  }

  /** A new correction (or null: the dry vocal); every chunk is computed again when next needed. */
  setPlan(plan: LivePitchPlan | null): void {
    this.#plan = plan;
    this.#fresh.fill(0);
  }

  /** Makes source samples [from, to) valid in `channels`. */
  ensure(from: number, to: number): void {
    const first = Math.max(0, Math.floor(from / CORRECTED_CHUNK));
    const last = Math.min(this.#fresh.length - 1, Math.floor((to - 1) / CORRECTED_CHUNK));
    for (let k = first; k <= last; k++) {
      if (this.#fresh[k]) continue;
      const from0 = k * CORRECTED_CHUNK;
      const to0 = Math.min(this.length, from0 + CORRECTED_CHUNK);
      this.#fill(from0, to0);
      let moved = 0;
      for (let c = 0; c < this.channels.length; c++) {
        const a = this.channels[c]!;
        const b = this.source[c]!;
        for (let i = from0; i < to0; i++) moved = Math.max(moved, Math.abs(a[i]! - b[i]!));
      }
      this.#moved[k] = moved;
      this.#fresh[k] = 1;
    }
  }

  /** The largest change the correction made to samples [from, to) (after `ensure` over them). */
  movedIn(from: number, to: number): number {
    let moved = 0;
    const first = Math.max(0, Math.floor(from / CORRECTED_CHUNK));
    const last = Math.min(this.#moved.length - 1, Math.floor((to - 1) / CORRECTED_CHUNK));
    for (let k = first; k <= last; k++) moved = Math.max(moved, this.#moved[k]!);
    return moved;
  }

  #fill(from: number, to: number): void {
    for (let c = 0; c < this.channels.length; c++)
      this.channels[c]!.set(this.source[c]!.subarray(from, to), from);
    const plan = this.#plan;
    if (!plan) return;
    const { runs, plans } = plan;
    // Runs are in order: skip to the first that ends after `from`.
    let lo = 0;
    let hi = runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (runs[mid]!.end <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let r = lo; r < runs.length && runs[r]!.start < to; r++) {
      const grains = plans[r];
      if (grains) renderRunSpan(this.source, runs[r]!, grains, this.#fade, this.channels, from, to);
    }
  }
}
