/**
 * A light plate-like reverb for the vocal (stage 6): Schroeder/Moorer style, eight damped feedback combs in
 * parallel and four allpasses in series per side, the right side's delays offset for stereo width
 * (the well-known Freeverb tunings, scaled to the sample rate). The dry vocal stays centred; only the
 * reverb return is stereo.
 */
const COMB_TUNING = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617];
const ALLPASS_TUNING = [556, 441, 341, 225];
const STEREO_SPREAD = 23;
const TUNING_RATE = 44_100;

export interface ReverbSettings {
  /** Feedback of the combs (0..1): room size. */
  roomSize: number;
  /** High-frequency damping in the combs (0..1). */
  damping: number;
  /** Return level, linear. */
  wet: number;
  /** Seconds before the reverb starts, keeps the vocal's consonants clear. */
  preDelay: number;
}

/** Tuned so the return sits about 18 dB under the dry vocal: audible space, no wash. */
export const VOCAL_REVERB: ReverbSettings = { roomSize: 0.78, damping: 0.45, wet: 0.45, preDelay: 0.02 };

class Comb {
  readonly #buf: Float32Array;
  #i = 0;
  #store = 0;
  constructor(length: number) {
    this.#buf = new Float32Array(length);
  }
  /** Adds this comb's output for `input` into `out` (both of one block). */
  run(input: Float32Array, out: Float32Array, n: number, feedback: number, damp: number): void {
    const buf = this.#buf;
    const len = buf.length;
    let i = this.#i;
    let store = this.#store;
    for (let k = 0; k < n; k++) {
      const y = buf[i]!;
      store = y * (1 - damp) + store * damp;
      buf[i] = input[k]! + store * feedback;
      out[k]! += y;
      if (++i === len) i = 0;
    }
    this.#i = i;
    // Flush a decayed state so the tail never reaches denormals.
    this.#store = Math.abs(store) < 1e-20 ? 0 : store;
  }
}

class Allpass {
  readonly #buf: Float32Array;
  #i = 0;
  constructor(length: number) {
    this.#buf = new Float32Array(length);
  }
  run(data: Float32Array, n: number): void {
    const buf = this.#buf;
    const len = buf.length;
    let i = this.#i;
    for (let k = 0; k < n; k++) {
      const b = buf[i]!;
      const x = data[k]!;
      buf[i] = x + b * 0.5;
      data[k] = b - x;
      if (++i === len) i = 0;
    }
    this.#i = i;
  }
}

/** Stereo reverb with state, fed block by block from a mono input. */
export class VocalReverb {
  readonly #combs: [Comb[], Comb[]];
  readonly #allpasses: [Allpass[], Allpass[]];
  readonly #settings: ReverbSettings;
  readonly #pre: Float32Array;
  #preIndex = 0;
  #feed = new Float32Array(0);
  #wet: [Float32Array, Float32Array] = [new Float32Array(0), new Float32Array(0)];

  constructor(sampleRate: number, settings: ReverbSettings = VOCAL_REVERB) {
    const scale = sampleRate / TUNING_RATE;
    const len = (n: number, side: number) => Math.max(1, Math.round((n + side * STEREO_SPREAD) * scale));
    this.#combs = [0, 1].map((side) => COMB_TUNING.map((n) => new Comb(len(n, side)))) as [Comb[], Comb[]];
    this.#allpasses = [0, 1].map((side) => ALLPASS_TUNING.map((n) => new Allpass(len(n, side)))) as [
      Allpass[],
      Allpass[],
    ];
    this.#settings = settings;
    this.#pre = new Float32Array(Math.max(1, Math.round(settings.preDelay * sampleRate)));
  }

  /**
   * Adds the reverb of `mono[start..end)` into `left`/`right` over the same range. The comb input is scaled
   * down by Freeverb's fixed input gain; `wet` then sets the return level.
   */
  process(mono: Float32Array, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const n = end - start;
    if (this.#feed.length < n) {
      this.#feed = new Float32Array(n);
      this.#wet = [new Float32Array(n), new Float32Array(n)];
    }
    const feed = this.#feed;
    const pre = this.#pre;
    let p = this.#preIndex;
    for (let k = 0; k < n; k++) {
      feed[k] = pre[p]! * 0.015;
      pre[p] = mono[start + k]!;
      if (++p === pre.length) p = 0;
    }
    this.#preIndex = p;
    const { roomSize, damping, wet } = this.#settings;
    const targets = [left, right];
    for (let side = 0; side < 2; side++) {
      const acc = this.#wet[side]!;
      acc.fill(0, 0, n);
      for (const comb of this.#combs[side]!) comb.run(feed, acc, n, roomSize, damping);
      for (const allpass of this.#allpasses[side]!) allpass.run(acc, n);
      const target = targets[side]!;
      for (let k = 0; k < n; k++) target[start + k]! += acc[k]! * wet;
    }
  }
}
