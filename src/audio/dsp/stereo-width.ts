/**
 * Stereo width by mid/side scaling (spec 9): side x width/50. Width 50 leaves the samples untouched (the
 * function returns without reading them), mono input has no side to scale, and a stereo pair with equal
 * channels stays equal (its side is exactly zero).
 */
import { BiquadCascade, type BiquadCoefficients, designBiquad, IDENTITY_BIQUAD } from './biquad';
import type { MonoBassLanes } from './wasm/mastering-tail';

export const widthFactor = (stereoWidth: number): number => Math.max(0, stereoWidth) / 50;

export const applyStereoWidth = (
  channels: readonly Float32Array[],
  stereoWidth: number,
  start = 0,
  end = channels[0]?.length ?? 0,
): void => {
  if (channels.length !== 2 || stereoWidth === 50) return;
  const w = widthFactor(stereoWidth);
  const left = channels[0]!;
  const right = channels[1]!;
  for (let i = start; i < end; i++) {
    const l = left[i]!;
    const r = right[i]!;
    const mid = (l + r) * 0.5;
    const side = (l - r) * 0.5 * w;
    left[i] = mid + side;
    right[i] = mid - side;
  }
};

/**
 * Width with the bass kept mono: the side goes through a 4th-order Linkwitz-Riley high-pass (two
 * Butterworth sections) at `bassMonoHz` before it is scaled, so what lies below folds down to mono intact
 * (decision 112). The side is filtered in a scratch buffer that grows to the largest block seen once.
 */
export class MonoBassWidth {
  #sideFilter = new BiquadCascade(2, 1);
  /** Reference mastering's side EQ (decision 114); null: none. */
  #sideEq: BiquadCascade | null = null;
  #sideLow = new BiquadCascade(2, 1);
  #scratch = new Float32Array(0);
  #low = new Float32Array(0);
  #hz = 0;
  /** Move the side's low band into the mid (out-of-phase bass) instead of dropping it. */
  #rescue = false;
  readonly sampleRate: number;

  constructor(sampleRate: number) {
    this.sampleRate = sampleRate;
  }

  setFrequency(hz: number, bassFromSide = false): void {
    this.#rescue = bassFromSide && hz > 0;
    if (hz === this.#hz) return;
    this.#hz = hz;
    const design = (kind: 'highpass' | 'lowpass') =>
      hz > 0 ? designBiquad({ kind, frequency: hz, q: Math.SQRT1_2 }, this.sampleRate) : IDENTITY_BIQUAD;
    this.#sideFilter.setSection(0, design('highpass'));
    this.#sideFilter.setSection(1, design('highpass'));
    this.#sideLow.setSection(0, design('lowpass'));
    this.#sideLow.setSection(1, design('lowpass'));
  }

  /** Sets the side-only EQ sections (filter state kept when only the gains change). */
  setSideEq(sections: readonly BiquadCoefficients[] | null): void {
    if (!sections) {
      this.#sideEq = null;
      return;
    }
    if (this.#sideEq?.sections !== sections.length) this.#sideEq = new BiquadCascade(sections.length, 1);
    sections.forEach((c, i) => {
      this.#sideEq!.setSection(i, c);
    });
  }

  get active(): boolean {
    return this.#hz > 0;
  }

  /**
   * What the fused back end (mastering-tail.ts) runs in place of `process` when active: the side's
   * high-pass and low-pass, the rescue and the width factor. Null with a side EQ (that path stays here).
   */
  lanesFor(stereoWidth: number): MonoBassLanes | null {
    if (this.#hz <= 0 || this.#sideEq) return null;
    return {
      side: BiquadCascade.part(this.#sideFilter),
      low: BiquadCascade.part(this.#sideLow),
      rescue: this.#rescue,
      width: widthFactor(stereoWidth),
    };
  }

  reset(): void {
    this.#sideFilter.reset();
    this.#sideLow.reset();
    this.#sideEq?.reset();
  }

  process(channels: readonly Float32Array[], stereoWidth: number, start: number, end: number): void {
    if (channels.length !== 2 || this.#hz <= 0) {
      applyStereoWidth(channels, stereoWidth, start, end);
      return;
    }
    const n = end - start;
    if (this.#scratch.length < n) {
      this.#scratch = new Float32Array(n);
      this.#low = new Float32Array(n);
    }
    const side = this.#scratch;
    const low = this.#low;
    const left = channels[0]!;
    const right = channels[1]!;
    for (let i = 0; i < n; i++) side[i] = (left[start + i]! - right[start + i]!) * 0.5;
    // The side's low band is filtered whether or not it is moved into the mid: it runs in the other lane of
    // the side's high-pass (BiquadCascade.processLanes), where it costs nothing, and its state stays current.
    low.set(side.subarray(0, n));
    this.#sideEq?.process(side, 0, 0, n);
    BiquadCascade.processLanes(this.#sideFilter, side, this.#sideLow, low, 0, n);
    const w = widthFactor(stereoWidth);
    const rescue = this.#rescue;
    for (let i = 0; i < n; i++) {
      const mid = (left[start + i]! + right[start + i]!) * 0.5 + (rescue ? low[i]! : 0);
      const s = side[i]! * w;
      left[start + i] = mid + s;
      right[start + i] = mid - s;
    }
  }
}
