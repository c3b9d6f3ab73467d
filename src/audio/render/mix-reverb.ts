/**
 * A light reverb for the vocal (stage 6): pre-delay, two allpass diffusers, then a four-line feedback delay
 * network (Jot/Stautner-Puckette) mixed by an orthogonal Hadamard matrix, with a one-pole low-pass in each
 * line so highs die first. The dry vocal stays centred; the return is stereo (different lines feed each
 * side). One sample costs 6 delay-line reads and writes: about a quarter of a Freeverb-style bank of eight
 * combs and four allpasses per side, which took most of a 4-minute mixdown's time.
 * The frame loop runs in WebAssembly where it can (dsp/wasm/reverb-kernel.ts), with the same samples.
 */
import { type ReverbKernel, reverbKernel } from '../dsp/wasm/reverb-kernel';

export interface ReverbSettings {
  /** Seconds for the tail to fall by 60 dB. */
  decay: number;
  /** High-frequency damping in the lines (0..1). */
  damping: number;
  /** Return level, linear. */
  wet: number;
  /** Seconds before the reverb starts: keeps the vocal's consonants clear. */
  preDelay: number;
}

/** Tuned so the return sits about 18 dB under the dry vocal: audible space, no wash. */
export const VOCAL_REVERB: ReverbSettings = { decay: 1.2, damping: 0.35, wet: 0.1, preDelay: 0.02 };

/** Mutually prime line lengths at 44.1 kHz (30 to 44 ms), scaled to the actual rate. */
const LINES = [1307, 1637, 1811, 1931];
const DIFFUSERS = [142, 107];
const DIFFUSION = 0.6;
const TUNING_RATE = 44_100;

const ring = (length: number) => new Float32Array(Math.max(1, length));

export class VocalReverb {
  readonly #pre: Float32Array;
  readonly #ap: [Float32Array, Float32Array];
  readonly #lines: [Float32Array, Float32Array, Float32Array, Float32Array];
  readonly #feedback: Float64Array;
  readonly #settings: ReverbSettings;
  /** Read/write positions: pre-delay, two diffusers, four lines. */
  readonly #pos = new Int32Array(7);
  /** Low-pass state of the four lines. */
  readonly #lp = new Float64Array(4);
  /** The same loop in WebAssembly (its own copies of the rings and states), or null: the loop below. */
  readonly #kernel: ReverbKernel | null;

  /** `spaceRing`: room in the kernel for vocal-space-fx.ts's delay lines (samples each), which runs there too. */
  constructor(sampleRate: number, settings: ReverbSettings = VOCAL_REVERB, spaceRing = 0) {
    const scale = sampleRate / TUNING_RATE;
    this.#settings = settings;
    this.#pre = ring(Math.round(settings.preDelay * sampleRate));
    this.#ap = [ring(Math.round(DIFFUSERS[0]! * scale)), ring(Math.round(DIFFUSERS[1]! * scale))];
    const lengths = LINES.map((n) => Math.max(1, Math.round(n * scale)));
    this.#lines = lengths.map(ring) as [Float32Array, Float32Array, Float32Array, Float32Array];
    // Each pass through a line of d samples must lose 60 dB * d / (decay * rate).
    this.#feedback = Float64Array.from(lengths, (d) => 10 ** ((-3 * d) / (settings.decay * sampleRate)));
    this.#kernel = reverbKernel({
      rings: [this.#pre, ...this.#ap, ...this.#lines].map((r) => r.length),
      halves: Array.from(this.#feedback, (f) => f * 0.5),
      keep: 1 - settings.damping,
      damp: settings.damping,
      wet: settings.wet,
      spaceRing,
    });
  }

  get kernel(): ReverbKernel | null {
    return this.#kernel;
  }

  /** Flushes decayed states, once per call, so long silences never reach denormals. */
  static flush(lp: Float64Array): void {
    for (let k = 0; k < 4; k++) if (Math.abs(lp[k]!) < 1e-20) lp[k] = 0;
  }

  /** Adds the reverb of `mono[start..end)` into `left`/`right` over the same range (in place is allowed). */
  process(mono: Float32Array, left: Float32Array, right: Float32Array, start: number, end: number): void {
    const kernel = this.#kernel;
    if (kernel) {
      kernel.process(mono, left, right, start, end);
      VocalReverb.flush(kernel.lowPass);
      return;
    }
    const pre = this.#pre;
    const [ap0, ap1] = this.#ap;
    const [l0, l1, l2, l3] = this.#lines;
    const f = this.#feedback;
    const f0 = f[0]!;
    const f1 = f[1]!;
    const f2 = f[2]!;
    const f3 = f[3]!;
    const damp = this.#settings.damping;
    const keep = 1 - damp;
    const wet = this.#settings.wet;
    const pos = this.#pos;
    let pp = pos[0]!;
    let a0 = pos[1]!;
    let a1 = pos[2]!;
    let p0 = pos[3]!;
    let p1 = pos[4]!;
    let p2 = pos[5]!;
    let p3 = pos[6]!;
    const lp = this.#lp;
    let s0 = lp[0]!;
    let s1 = lp[1]!;
    let s2 = lp[2]!;
    let s3 = lp[3]!;
    // Runs of frames in which no read/write position wraps, so the inner loop carries no wrap tests; the
    // positions wrap between runs (decision 270). The same arithmetic per frame as one frame at a time.
    for (let i = start; i < end; ) {
      const run = Math.min(
        end - i,
        pre.length - pp,
        ap0.length - a0,
        ap1.length - a1,
        l0.length - p0,
        l1.length - p1,
        l2.length - p2,
        l3.length - p3,
      );
      for (let k = 0; k < run; k++, i++) {
        // Pre-delay (read the delayed sample before the dry one is overwritten in place).
        let x = pre[pp + k]!;
        pre[pp + k] = mono[i]!;
        // Two Schroeder allpasses smear the onset so the network starts dense.
        let b = ap0[a0 + k]!;
        let v = x + DIFFUSION * b;
        ap0[a0 + k] = v;
        x = b - DIFFUSION * v;
        b = ap1[a1 + k]!;
        v = x + DIFFUSION * b;
        ap1[a1 + k] = v;
        x = b - DIFFUSION * v;
        // Line outputs through their damping low-passes.
        s0 = l0[p0 + k]! * keep + s0 * damp;
        s1 = l1[p1 + k]! * keep + s1 * damp;
        s2 = l2[p2 + k]! * keep + s2 * damp;
        s3 = l3[p3 + k]! * keep + s3 * damp;
        // 4x4 Hadamard / 2: orthogonal, so the feedback gains alone set the decay.
        const u = s0 + s1;
        const w = s0 - s1;
        const y = s2 + s3;
        const z = s2 - s3;
        l0[p0 + k] = x + f0 * 0.5 * (u + y);
        l1[p1 + k] = x + f1 * 0.5 * (w + z);
        l2[p2 + k] = x + f2 * 0.5 * (u - y);
        l3[p3 + k] = x + f3 * 0.5 * (w - z);
        left[i]! += wet * (s0 - s2);
        right[i]! += wet * (s1 - s3);
      }
      pp = (pp + run) % pre.length;
      a0 = (a0 + run) % ap0.length;
      a1 = (a1 + run) % ap1.length;
      p0 = (p0 + run) % l0.length;
      p1 = (p1 + run) % l1.length;
      p2 = (p2 + run) % l2.length;
      p3 = (p3 + run) % l3.length;
    }
    pos.set([pp, a0, a1, p0, p1, p2, p3]);
    lp.set([s0, s1, s2, s3]);
    VocalReverb.flush(lp);
  }
}
