/**
 * How much a gain stage (compressor, limiter) reduced, measured while the render runs: for the "Why it
 * sounds like this" panel (decision 126). The compressor records its gain at each control point (every 16
 * frames, where it computes it anyway), so collecting costs a few additions per 16 frames; the limiter's
 * summary is read from the block gains the render applied.
 */

/** Reductions below this count as "not working" for the share of time a stage was active. */
export const ACTIVE_REDUCTION_DB = 0.1;

export interface DynamicsSummary {
  /** Deepest reduction, dB (>= 0). */
  maxDb: number;
  /** Mean reduction over the whole track, dB (>= 0). */
  averageDb: number;
  /** Mean reduction while active, dB (>= 0; 0 when never active). */
  averageActiveDb: number;
  /** Share of the time the reduction was at least ACTIVE_REDUCTION_DB, 0..1. */
  activeShare: number;
}

export class DynamicsStats {
  #points = 0;
  #active = 0;
  #sum = 0;
  #activeSum = 0;
  #max = 0;

  /** One control point's gain in dB (<= 0). */
  record(gainDb: number): void {
    const reduction = -gainDb;
    this.#points++;
    if (reduction <= 0) return;
    this.#sum += reduction;
    if (reduction > this.#max) this.#max = reduction;
    if (reduction >= ACTIVE_REDUCTION_DB) {
      this.#active++;
      this.#activeSum += reduction;
    }
  }

  /** `count` control points with no reduction at all (a bypassed stage), so shares stay per track. */
  idle(count: number): void {
    this.#points += count;
  }

  get points(): number {
    return this.#points;
  }

  summary(): DynamicsSummary {
    const n = this.#points;
    return {
      maxDb: this.#max,
      averageDb: n > 0 ? this.#sum / n : 0,
      averageActiveDb: this.#active > 0 ? this.#activeSum / this.#active : 0,
      activeShare: n > 0 ? this.#active / n : 0,
    };
  }
}

/** The summary of linear gains (<= 1), e.g. the limiter's block boundary gains. */
export const summariseGains = (gains: ArrayLike<number>, count = gains.length): DynamicsSummary => {
  const stats = new DynamicsStats();
  for (let i = 0; i < count; i++) {
    const g = gains[i]!;
    stats.record(g >= 1 ? 0 : 20 * Math.log10(g));
  }
  return stats.summary();
};

/** What the render's dynamics stages did: the single-band compressor, or the three bands, and the limiter. */
export interface ChainDynamics {
  /** The single-band compressor (null when the multiband one ran or compression was 0). */
  compressor: DynamicsSummary | null;
  /** The multiband compressor's low / mid / high bands (null when it did not run). */
  bands: DynamicsSummary[] | null;
  /** The lookahead peak compressor before the brickwall (decision 265); null or absent where none ran. */
  peakCompressor?: DynamicsSummary | null;
  /** The brickwall limiter's own reduction. */
  limiter: DynamicsSummary;
}

/** What the compressors did (ChainDynamics without the limiter, which is read from the plan afterwards). */
export type CompressorDynamics = Omit<ChainDynamics, 'limiter' | 'peakCompressor'>;

/**
 * The two halves of the two-worker render (decision 141) each saw some compressors: the single-band one
 * runs in the front; of the bands, the first `frontBands` in the front, the others in the back.
 */
export const mergeCompressorDynamics = (
  front: CompressorDynamics,
  back: CompressorDynamics,
  frontBands: number,
): CompressorDynamics => ({
  compressor: front.compressor ?? back.compressor,
  bands:
    front.bands && back.bands
      ? back.bands.map((band, b) => (b < frontBands ? front.bands![b]! : band))
      : (front.bands ?? back.bands),
});

/** The accumulators a MasteringProcessor fills while it runs (one per compressor). */
export class ChainStats {
  readonly compressor = new DynamicsStats();
  readonly bands = [new DynamicsStats(), new DynamicsStats(), new DynamicsStats()];

  /** The summaries of the compressors that ran (null for those that did not). */
  compressors(): CompressorDynamics {
    const usedBands = this.bands.some((b) => b.points > 0);
    return {
      compressor: this.compressor.points > 0 ? this.compressor.summary() : null,
      bands: usedBands ? this.bands.map((b) => b.summary()) : null,
    };
  }

  summary(limiter: DynamicsSummary): ChainDynamics {
    return { ...this.compressors(), limiter };
  }
}
