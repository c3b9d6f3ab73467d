/**
 * A three-band Linkwitz-Riley crossover (4th order: two Butterworth sections per slope) that sums flat
 * (decision 113): low = LP1(x) through an all-pass at f2 (the phase the upper split adds), mid = LP2(HP1(x)),
 * high = HP2(HP1(x)). LP + HP of an LR4 pair is a 2nd-order all-pass, so the three bands add up to
 * AP2(AP1(x)): unity magnitude at every frequency, only phase turns.
 */
import { BiquadCascade, type BiquadCoefficients, designBiquad } from './biquad';
import { crossoverKernel } from './wasm/crossover-kernel';

export interface CrossoverDesign {
  lowHz: number;
  highHz: number;
}

export const crossoverSections = (design: CrossoverDesign, sampleRate: number) => {
  const bw = (kind: 'lowpass' | 'highpass' | 'allpass', frequency: number): BiquadCoefficients =>
    designBiquad({ kind, frequency, q: Math.SQRT1_2 }, sampleRate);
  return {
    lp1: bw('lowpass', design.lowHz),
    hp1: bw('highpass', design.lowHz),
    lp2: bw('lowpass', design.highHz),
    hp2: bw('highpass', design.highHz),
    ap2: bw('allpass', design.highHz),
  };
};

/** Splits block after block into three band buffers; state per channel, kept between blocks. */
export class ThreeBandCrossover {
  readonly channels: number;
  #low: BiquadCascade;
  #rest: BiquadCascade;
  #mid: BiquadCascade;
  #high: BiquadCascade;
  /** bands[b][c]: scratch of each band and channel, grown to the largest block seen. */
  readonly bands: Float32Array[][];

  constructor(sampleRate: number, channels: number, design: CrossoverDesign) {
    this.channels = channels;
    const s = crossoverSections(design, sampleRate);
    this.#low = new BiquadCascade(3, channels);
    this.#low.setSection(0, s.lp1);
    this.#low.setSection(1, s.lp1);
    this.#low.setSection(2, s.ap2);
    this.#rest = new BiquadCascade(2, channels);
    this.#rest.setSection(0, s.hp1);
    this.#rest.setSection(1, s.hp1);
    this.#mid = new BiquadCascade(2, channels);
    this.#mid.setSection(0, s.lp2);
    this.#mid.setSection(1, s.lp2);
    this.#high = new BiquadCascade(2, channels);
    this.#high.setSection(0, s.hp2);
    this.#high.setSection(1, s.hp2);
    this.bands = [0, 1, 2].map(() => Array.from({ length: channels }, () => new Float32Array(0)));
  }

  reset(): void {
    this.#low.reset();
    this.#rest.reset();
    this.#mid.reset();
    this.#high.reset();
  }

  /**
   * Fills bands[b][c][0..end-start) from channels[c][start..end): the own scratch, or `into` (the two-worker
   * render hands the bands over in a shared ring, decision 141).
   */
  split(
    channels: readonly Float32Array[],
    start: number,
    end: number,
    into?: readonly (readonly Float32Array[])[],
  ): void {
    const n = end - start;
    if (n <= 0) return;
    if (!into && this.bands[0]![0]!.length < n)
      for (const band of this.bands) for (let c = 0; c < this.channels; c++) band[c] = new Float32Array(n);
    const [low, mid, high] = (into ?? this.bands) as [Float32Array[], Float32Array[], Float32Array[]];
    // Stereo in WebAssembly SIMD where it runs: the four passes below in two, the same bands bit for bit.
    const kernel = this.channels === 2 ? crossoverKernel() : null;
    if (kernel) {
      const part = BiquadCascade.part;
      const parts = [part(this.#low), part(this.#rest), part(this.#mid), part(this.#high)] as const;
      kernel.split(parts, channels[0]!, channels[1]!, start, end, [low, mid, high]);
      return;
    }
    for (let c = 0; c < this.channels; c++) {
      const x = channels[c]!.subarray(start, end);
      low[c]!.set(x);
      mid[c]!.set(x);
    }
    if (this.channels === 2) {
      this.#low.processStereo(low[0]!, low[1]!, 0, n);
      this.#rest.processStereo(mid[0]!, mid[1]!, 0, n);
      high[0]!.set(mid[0]!.subarray(0, n));
      high[1]!.set(mid[1]!.subarray(0, n));
      this.#mid.processStereo(mid[0]!, mid[1]!, 0, n);
      this.#high.processStereo(high[0]!, high[1]!, 0, n);
    } else {
      for (let c = 0; c < this.channels; c++) {
        this.#low.process(low[c]!, c, 0, n);
        this.#rest.process(mid[c]!, c, 0, n);
        high[c]!.set(mid[c]!.subarray(0, n));
        this.#mid.process(mid[c]!, c, 0, n);
        this.#high.process(high[c]!, c, 0, n);
      }
    }
  }
}
