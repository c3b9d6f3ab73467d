/**
 * Three-band compression for the adaptive chain (decision 113): a Linkwitz-Riley split (crossover.ts),
 * one stereo-linked Compressor per band, and the sum. Each band's threshold sits above that band's own
 * loudness in the loudest 30 s by a share of its crest factor, so only the band's peaks are caught and a
 * quieter section stays under it: the amount follows the Compression slider (ratio 1:1 at 0, 4:1 at 100,
 * as the spec's compressor) and the measured dynamics, and not the level the mix arrives at.
 */
import { Compressor, type CompressorParams, type GainTrace } from './compressor';
import { type CrossoverDesign, ThreeBandCrossover } from './crossover';
import type { DynamicsStats } from './dynamics-stats';

export const MULTIBAND_CROSSOVER: CrossoverDesign = { lowHz: 150, highHz: 2500 };

/** A band's level in the loudest 30 s of the input: RMS and sample peak, dB. */
export interface BandDynamics {
  rmsDb: number;
  peakDb: number;
}

/** Time constant of each band's running RMS, which the threshold sits above. */
const RELATIVE_MS = 1000;

/** Attack and release per band: slower in the bass (a fast release there would distort the waveform). */
const TIMING = [
  { attackMs: 20, releaseMs: 200 },
  { attackMs: 10, releaseMs: 150 },
  { attackMs: 5, releaseMs: 100 },
] as const;

/**
 * Compression 0..100 and the bands' dynamics to per-band parameters: the threshold sits crest x
 * (1 - 0.6 x amount) above the band's running RMS (1 s), so Balanced (45) starts 73 % of the way up the
 * crest it had in the loudest 30 s, Loud (75) 55 %, in a quiet section as in a loud one.
 */
export const multibandParamsFor = (
  compression: number,
  bands: readonly BandDynamics[],
): CompressorParams[] => {
  const amount = Math.min(100, Math.max(0, compression)) / 100;
  return TIMING.map((timing, b) => {
    const band = bands[b];
    const rms = band && Number.isFinite(band.rmsDb) ? band.rmsDb : -60;
    const crest = band && Number.isFinite(band.peakDb) ? Math.max(0, band.peakDb - rms) : 0;
    return {
      thresholdDb: crest * (1 - 0.6 * amount),
      ratio: 1 + 3 * amount,
      kneeDb: 6,
      ...timing,
      relativeMs: RELATIVE_MS,
      initialLevelDb: rms,
    };
  });
};

/**
 * Bands whose compressors run in the chain's front half, with the crossover (MasteringProcessor.front). In
 * the two-worker render (decision 141) the back had twice the front's work once the filters ran in
 * WebAssembly (decision 160), and the low band's compressor went to the front; once the back's end ran in
 * one kernel (decision 315) and the bands' compressors in WebAssembly (decision 316), the front had the more
 * work, and all three bands are compressed in the back again (240 s: front 422, back 430 ms CPU, against
 * 511 and 371 with the low band in front). Each band's compressor sees the same frames in the same order
 * wherever it runs, so the output does not change. Decision 304 kept it at 0: the three bands in one
 * WebAssembly loop and the crossover in its own kernel each took about 7 % off their half's part.
 */
export const FRONT_BANDS = 0;

export class MultibandCompressor {
  #crossover: ThreeBandCrossover;
  #compressors: Compressor[];

  constructor(sampleRate: number, channels: number, params: readonly CompressorParams[]) {
    this.#crossover = new ThreeBandCrossover(sampleRate, channels, MULTIBAND_CROSSOVER);
    this.#compressors = params.map((p) => new Compressor(sampleRate, p));
  }

  /** Per-band statistics (low, mid, high) while set (decision 126). */
  attachStats(stats: readonly DynamicsStats[] | null): void {
    this.#compressors.forEach((c, b) => {
      c.stats = stats?.[b] ?? null;
    });
  }

  /** The crossover's own band scratch (what `split` fills without `into`). */
  get bands(): readonly (readonly Float32Array[])[] {
    return this.#crossover.bands;
  }

  setParams(params: readonly CompressorParams[]): void {
    params.forEach((p, b) => {
      this.#compressors[b]?.setParams(p);
    });
  }

  /** One gain trace per band (low, mid, high), recorded or replayed (decision 150); null: none. */
  setTraces(traces: readonly GainTrace[] | null): void {
    this.#compressors.forEach((c, b) => {
      c.trace = traces?.[b] ?? null;
    });
  }

  reset(): void {
    this.#crossover.reset();
    for (const c of this.#compressors) c.reset();
  }

  /** Compresses `channels[c][start..end)` in place: split, then combine. */
  process(channels: readonly Float32Array[], start: number, end: number): void {
    if (end <= start) return;
    this.split(channels, start, end);
    this.combine(this.#crossover.bands, channels, start, end);
  }

  /** The crossover alone: bands[b][c][0..end-start) from channels[c][start..end) (own scratch or `into`). */
  split(
    channels: readonly Float32Array[],
    start: number,
    end: number,
    into?: readonly (readonly Float32Array[])[],
  ): void {
    this.#crossover.split(channels, start, end, into);
  }

  /**
   * Compresses bands [from, to) of a split block (frames 0..n of each band) in place; with `keep`, all three
   * of at most one chunk may instead stay in the band kernel's memory for the mastering tail (decision 321):
   * true when they did, and `bands` then still hold the uncompressed split.
   */
  compress(
    bands: readonly (readonly Float32Array[])[],
    from: number,
    to: number,
    n: number,
    keep = false,
  ): boolean {
    const c = this.#compressors;
    // All three bands in one WebAssembly loop where it runs: the third band's chain overlaps the other two's.
    if (to - from === 3) {
      const done = Compressor.processInWasm(c[from]!, bands[from]!, c[from + 1]!, bands[from + 1]!, 0, n, {
        c: c[from + 2]!,
        channels: bands[from + 2]!,
        keep,
      });
      if (done) return done === 'kept';
    }
    for (let b = from; b < to; ) {
      // Two bands at a time in WebAssembly where it runs (decision 316); else each in JavaScript.
      const pair = b + 1 < to;
      if (
        Compressor.processInWasm(c[b]!, bands[b]!, pair ? c[b + 1]! : null, pair ? bands[b + 1]! : null, 0, n)
      )
        b += pair ? 2 : 1;
      else c[b++]!.process(bands[b - 1]!, 0, n);
    }
    return false;
  }

  /**
   * Compresses the bands of `channels[c][start..end)` (from `split`) from band `from` on (the ones before
   * were compressed already: the two-worker render's front does the low band) and writes their sum back.
   */
  combine(
    bands: readonly (readonly Float32Array[])[],
    channels: readonly Float32Array[],
    start: number,
    end: number,
    from = 0,
  ): void {
    const n = end - start;
    if (n <= 0) return;
    this.compress(bands, from, 3, n);
    const [low, mid, high] = bands as [Float32Array[], Float32Array[], Float32Array[]];
    for (let c = 0; c < channels.length; c++) {
      const out = channels[c]!;
      const l = low[c]!;
      const m = mid[c]!;
      const h = high[c]!;
      for (let i = 0; i < n; i++) out[start + i] = l[i]! + m[i]! + h[i]!;
    }
  }
}
