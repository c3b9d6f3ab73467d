/**
 * "Vocal space" (issue 18): a sidechained, frequency-selective gain reduction of the beat (the instrumental
 * stem) in the vocal's band, only while the vocal sings, before the master bus — the dynamic EQ move a mix
 * engineer makes by hand.
 *
 * How it works (decision 155):
 * - The vocal band, 1-5 kHz, is split into four bands of equal width in octaves (about 0.58 octave each)
 *   with constant-peak band-pass filters whose -3 dB points meet at the band edges.
 * - The carve is parallel: out = beat - s * sum_k (1 - g_k) * bandpass_k(beat), s the bands' share of
 *   their overlap (bandSumPeak). A band-pass has zero phase at
 *   its centre, so each term is a peaking cut (the RBJ peaking EQ is exactly x + (A - 1) * bandpass(x));
 *   moving g_k is click-free (no coefficient modulation), and with every g_k exactly 1 the output is the
 *   input bit for bit: nothing is touched while the vocal is silent or at amount 0.
 * - Each band's cut follows three things: whether the vocal sings (its band level against the profile's
 *   singing threshold), how strongly the beat masks the vocal in that band right now (beat level minus
 *   vocal level, band by band) and the vocal's own long-term spectrum (the profile's weights: the bands
 *   where this singer lives are carved most). At amount 100 the deepest cut is MAX_CUT_DB.
 * - Gains are computed every CONTROL frames at absolute frame positions and ramp linearly between them, so
 *   any block size (the worklet's 128-frame quanta, the render's 4096) gives the same samples.
 */
import { yieldToEventLoop } from '../event-loop';
import { BiquadCascade } from './biquad';
import {
  ATTACK_MS,
  bandSumPeak,
  CONTROL,
  DETECT_MS,
  filterBandPairs,
  GATE_RANGE_DB,
  MASK_FULL_DB,
  MASK_NONE_DB,
  MAX_CUT_DB,
  monoInto,
  RELEASE_MS,
  SNAP_DB,
  TINY,
  VOCAL_SPACE_BANDS,
  type VocalSpaceProfile,
  vocalSpaceBandDesigns,
} from './vocal-space-bands';
import { analyseVocalSpace } from './vocal-space-profile';
import {
  CARVE_STATE,
  type CarveJob,
  type CarveKernel,
  carveCoefficients,
  carveKernel,
} from './wasm/carve-kernel';

export {
  MAX_CUT_DB,
  SILENT_VOCAL_PROFILE,
  VOCAL_BAND_HZ,
  VOCAL_SPACE_BANDS,
  VOCAL_SPACE_EDGES_HZ,
  type VocalSpaceProfile,
  vocalSpaceBandDesigns,
  vocalSpaceResponseDb,
} from './vocal-space-bands';
export { analyseVocalSpace } from './vocal-space-profile';

/**
 * Relative margin around a decibel edge within which the logarithm decides: far more than log10's error
 * (under an ulp), far less than anything audible.
 */
const LOG_MARGIN = 1e-9;
/** Beat-to-vocal power ratios at or under which a band is surely unmasked, at or over which surely masked. */
const MASK_NONE_RATIO = 10 ** (MASK_NONE_DB / 10) * (1 - LOG_MARGIN);
const MASK_FULL_RATIO = 10 ** (MASK_FULL_DB / 10) * (1 + LOG_MARGIN);

const coefficient = (ms: number, sampleRate: number, step: number) =>
  1 - Math.exp(-step / ((ms * sampleRate) / 1000));

/**
 * The streaming carve. `process(beat, vocal, start, end)` changes the beat's frames in place; the vocal is
 * only listened to. The AudioWorklet (live) and the render (offline) both run this class.
 */
export class VocalSpaceProcessor {
  readonly sampleRate: number;
  readonly channelCount: number;
  #amount = 0;
  #profile: VocalSpaceProfile;
  /** Vocal-band levels (mean square) at or under which the gate is surely shut, at or over which surely full. */
  #gateShut = 0;
  #gateFull = 0;
  /** Band-pass filters of the beat (stereo state) and of the vocal's mono sum. */
  #beatBands: BiquadCascade[];
  #vocalBands: BiquadCascade[];
  /** Mean-square envelopes per band, of the beat's mono sum and of the vocal. */
  #beatEnv = new Float64Array(VOCAL_SPACE_BANDS);
  #vocalEnv = new Float64Array(VOCAL_SPACE_BANDS);
  /** Smoothed cut per band (dB >= 0); the gain ramps from `#from` to `#to` between control points. */
  #cutDb = new Float64Array(VOCAL_SPACE_BANDS);
  #from = new Float64Array(VOCAL_SPACE_BANDS).fill(1);
  #to = new Float64Array(VOCAL_SPACE_BANDS).fill(1);
  #frame = 0;
  #detect: number;
  /** Each band's share of the parallel cut (1 / the overlap's peak, see bandSumPeak). */
  #share: number;
  #attack: number;
  #release: number;
  /** Scratch: band signals of each beat channel and of the vocal, grown to the largest block seen. */
  #scratch: Float32Array[] = [];
  #vocalScratch: Float32Array[] = [];
  #mono = new Float32Array(0);
  /** The cut of each beat channel, summed over the bands in doubles. */
  #cut: Float64Array[] = [new Float64Array(0), new Float64Array(0)];
  /**
   * The WebAssembly kernel (decision 311), chosen once: its filters keep their own state (in `#job`), so a
   * processor stays on the path it started on. Null: the JavaScript below (one or two channels only).
   */
  #kernel: CarveKernel | null;
  #job: CarveJob | null = null;

  constructor(sampleRate: number, channelCount: number, profile: VocalSpaceProfile, amount: number) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    this.#profile = profile;
    this.setProfile(profile);
    const designs = vocalSpaceBandDesigns(sampleRate);
    this.#beatBands = designs.map((c) => {
      const f = new BiquadCascade(1, channelCount);
      f.setSection(0, c);
      return f;
    });
    this.#vocalBands = designs.map((c) => {
      const f = new BiquadCascade(1, 1);
      f.setSection(0, c);
      return f;
    });
    this.#share = 1 / bandSumPeak(designs, sampleRate);
    this.#detect = coefficient(DETECT_MS, sampleRate, 1);
    this.#attack = coefficient(ATTACK_MS, sampleRate, CONTROL);
    this.#release = coefficient(RELEASE_MS, sampleRate, CONTROL);
    const coefs = channelCount <= 2 ? carveCoefficients(designs) : null;
    this.#kernel = coefs && carveKernel();
    if (coefs && this.#kernel)
      this.#job = {
        coefs,
        state: new Float64Array(CARVE_STATE),
        vocalEnv: this.#vocalEnv,
        beatEnv: this.#beatEnv,
        from: this.#from,
        to: this.#to,
        detect: this.#detect,
        share: this.#share,
        control: () => this.#control(),
      };
    this.setAmount(amount);
  }

  get amount(): number {
    return this.#amount;
  }

  /** 0..100; 0 turns the carve off (the gains glide back to exactly 1 first). */
  setAmount(amount: number): void {
    this.#amount = Math.min(100, Math.max(0, Number.isFinite(amount) ? amount : 0));
  }

  setProfile(profile: VocalSpaceProfile): void {
    this.#profile = profile;
    const db = profile.singingThresholdDb;
    this.#gateShut = 10 ** (db / 10) * (1 - LOG_MARGIN);
    this.#gateFull = 10 ** ((db + GATE_RANGE_DB) / 10) * (1 + LOG_MARGIN);
  }

  reset(): void {
    for (const f of this.#beatBands) f.reset();
    for (const f of this.#vocalBands) f.reset();
    this.#job?.state.fill(0);
    this.#beatEnv.fill(0);
    this.#vocalEnv.fill(0);
    this.#cutDb.fill(0);
    this.#from.fill(1);
    this.#to.fill(1);
  }

  /** True while the carve can change a sample (amount above 0, or a cut still releasing). */
  get active(): boolean {
    return this.#amount > 0 || this.#cutDb.some((c) => c > 0) || this.#from.some((g) => g !== 1);
  }

  /** The deepest current cut over the bands, dB (for meters and tests). */
  get cutDb(): number {
    return Math.max(...this.#cutDb);
  }

  #ensureScratch(n: number): void {
    if (this.#mono.length >= n) return;
    this.#mono = new Float32Array(n);
    this.#scratch = Array.from({ length: VOCAL_SPACE_BANDS * this.channelCount }, () => new Float32Array(n));
    this.#vocalScratch = Array.from({ length: VOCAL_SPACE_BANDS }, () => new Float32Array(n));
    this.#cut = [new Float64Array(n), new Float64Array(n)];
  }

  /** Carves `beat[c][start..end)` in place, listening to `vocal[..][start..end)` (null or empty: silent). */
  process(
    beat: readonly Float32Array[],
    vocal: readonly Float32Array[] | null,
    start: number,
    end: number,
  ): void {
    const n = end - start;
    if (n <= 0) return;
    if (!this.active) {
      // Off and fully released: the beat is untouched; the detectors rest (they refill in ~20 ms).
      this.#frame += n;
      return;
    }
    this.#ensureScratch(n);
    const channels = Math.min(this.channelCount, beat.length);
    if (this.#kernel && this.#job && channels > 0) {
      monoInto(this.#mono, vocal ?? [], start, end);
      const right = channels === 2 ? beat[1]! : null;
      this.#kernel.process(this.#job, beat[0]!, right, this.#mono, start, end, this.#frame);
      this.#frame += n;
      return;
    }
    const bands = this.#scratch;
    for (let k = 0; k < VOCAL_SPACE_BANDS; k++) {
      for (let c = 0; c < channels; c++) bands[k * this.channelCount + c]!.set(beat[c]!.subarray(start, end));
      if (channels === 2)
        this.#beatBands[k]!.processStereo(
          bands[k * this.channelCount]!,
          bands[k * this.channelCount + 1]!,
          0,
          n,
        );
      else
        for (let c = 0; c < channels; c++)
          this.#beatBands[k]!.process(bands[k * this.channelCount + c]!, c, 0, n);
    }
    monoInto(this.#mono, vocal ?? [], start, end);
    for (const v of this.#vocalScratch) v.set(this.#mono.subarray(0, n));
    filterBandPairs(this.#vocalBands, this.#vocalScratch, n);
    const from = this.#from;
    const to = this.#to;
    const vocalEnv = this.#vocalEnv;
    const beatEnv = this.#beatEnv;
    const detect = this.#detect;
    const stride = this.channelCount;
    const cutL = this.#cut[0]!;
    const cutR = this.#cut[1]!;
    cutL.fill(0, 0, n);
    cutR.fill(0, 0, n);
    // The four bands' signals; a one-channel beat reads its one channel as both sides (its mid 0.5 (l + l)
    // is l exactly, and the right cut is not used).
    const vb = this.#vocalScratch;
    const [v0, v1, v2, v3] = [vb[0]!, vb[1]!, vb[2]!, vb[3]!];
    const side = (k: number, c: number) => bands[k * stride + (channels === 2 ? c : 0)]!;
    const [l0, l1, l2, l3] = [side(0, 0), side(1, 0), side(2, 0), side(3, 0)];
    const [r0, r1, r2, r3] = [side(0, 1), side(1, 1), side(2, 1), side(3, 1)];
    let touched = false;
    // Control segment by control segment, the four bands in one loop over the frames: eight independent
    // envelope recursions per frame, which the CPU overlaps (decision 270). Each band's arithmetic, and the
    // order in which the bands' cuts are summed, is that of one band at a time, so the samples are the same;
    // a band at gain 1 adds exactly 0. Each frame's arithmetic is the same whatever the block size, so the
    // worklet's 128-frame quanta give the render's samples.
    for (let i = 0; i < n; ) {
      const phase = this.#frame % CONTROL;
      if (phase === 0) this.#control();
      const len = Math.min(n - i, CONTROL - phase);
      const a0 = from[0]!;
      const a1 = from[1]!;
      const a2 = from[2]!;
      const a3 = from[3]!;
      const b0 = to[0]!;
      const b1 = to[1]!;
      const b2 = to[2]!;
      const b3 = to[3]!;
      const untouched =
        a0 === 1 && b0 === 1 && a1 === 1 && b1 === 1 && a2 === 1 && b2 === 1 && a3 === 1 && b3 === 1;
      if (!untouched) touched = true;
      let ve0 = vocalEnv[0]!;
      let ve1 = vocalEnv[1]!;
      let ve2 = vocalEnv[2]!;
      let ve3 = vocalEnv[3]!;
      let be0 = beatEnv[0]!;
      let be1 = beatEnv[1]!;
      let be2 = beatEnv[2]!;
      let be3 = beatEnv[3]!;
      for (let j = 0; j < len; j++) {
        const x = i + j;
        const w0 = v0[x]!;
        const w1 = v1[x]!;
        const w2 = v2[x]!;
        const w3 = v3[x]!;
        ve0 += detect * (w0 * w0 - ve0);
        ve1 += detect * (w1 * w1 - ve1);
        ve2 += detect * (w2 * w2 - ve2);
        ve3 += detect * (w3 * w3 - ve3);
        const x0 = l0[x]!;
        const x1 = l1[x]!;
        const x2 = l2[x]!;
        const x3 = l3[x]!;
        const y0 = r0[x]!;
        const y1 = r1[x]!;
        const y2 = r2[x]!;
        const y3 = r3[x]!;
        const m0 = 0.5 * (x0 + y0);
        const m1 = 0.5 * (x1 + y1);
        const m2 = 0.5 * (x2 + y2);
        const m3 = 0.5 * (x3 + y3);
        be0 += detect * (m0 * m0 - be0);
        be1 += detect * (m1 * m1 - be1);
        be2 += detect * (m2 * m2 - be2);
        be3 += detect * (m3 * m3 - be3);
        if (untouched) continue;
        // Linear ramps that land exactly on the control point's gains.
        const p = phase + j;
        const end = p === CONTROL - 1;
        const t = (p + 1) / CONTROL;
        const g0 = a0 === b0 || end ? b0 : a0 + (b0 - a0) * t;
        const g1 = a1 === b1 || end ? b1 : a1 + (b1 - a1) * t;
        const g2 = a2 === b2 || end ? b2 : a2 + (b2 - a2) * t;
        const g3 = a3 === b3 || end ? b3 : a3 + (b3 - a3) * t;
        cutL[x] = cutL[x]! + (1 - g0) * x0 + (1 - g1) * x1 + (1 - g2) * x2 + (1 - g3) * x3;
        cutR[x] = cutR[x]! + (1 - g0) * y0 + (1 - g1) * y1 + (1 - g2) * y2 + (1 - g3) * y3;
      }
      vocalEnv[0] = ve0;
      vocalEnv[1] = ve1;
      vocalEnv[2] = ve2;
      vocalEnv[3] = ve3;
      beatEnv[0] = be0;
      beatEnv[1] = be1;
      beatEnv[2] = be2;
      beatEnv[3] = be3;
      this.#frame += len;
      i += len;
    }
    // With every gain exactly 1 the cut is exactly 0 and the beat keeps its bits: nothing to subtract.
    if (!touched) return;
    const share = this.#share;
    for (let c = 0; c < channels; c++) {
      const data = beat[c]!;
      const cut = c === 0 ? cutL : cutR;
      for (let i = 0; i < n; i++) data[start + i] = data[start + i]! - share * cut[i]!;
    }
  }

  /** At a control point: the next cut per band, and the gain ramp toward it over the next CONTROL frames. */
  #control(): void {
    const { weights, singingThresholdDb } = this.#profile;
    let vocalTotal = 0;
    for (let k = 0; k < VOCAL_SPACE_BANDS; k++) vocalTotal += this.#vocalEnv[k]!;
    // Where the gate or a band's masking is surely shut or surely full, the clamp's 0 or 1 without the
    // logarithm (the margins are thousands of ulps of log10, so nothing near the edges is decided this way).
    const level = vocalTotal + TINY;
    const singing =
      level <= this.#gateShut
        ? 0
        : level >= this.#gateFull
          ? 1
          : Math.min(1, Math.max(0, (10 * Math.log10(level) - singingThresholdDb) / GATE_RANGE_DB));
    const depth = (MAX_CUT_DB * this.#amount) / 100;
    for (let k = 0; k < VOCAL_SPACE_BANDS; k++) {
      const weight = weights[k] ?? 0;
      let target = 0;
      // A band of weight 0 has target 0 whatever its masking.
      if (singing > 0 && depth > 0 && weight !== 0) {
        const ratio = (this.#beatEnv[k]! + TINY) / (this.#vocalEnv[k]! + TINY);
        const masking =
          ratio <= MASK_NONE_RATIO
            ? 0
            : ratio >= MASK_FULL_RATIO
              ? 1
              : Math.min(
                  1,
                  Math.max(0, (10 * Math.log10(ratio) - MASK_NONE_DB) / (MASK_FULL_DB - MASK_NONE_DB)),
                );
        target = depth * weight * singing * masking;
      }
      const now = this.#cutDb[k]!;
      this.#from[k] = this.#to[k]!;
      let next = now + (target - now) * (target > now ? this.#attack : this.#release);
      if (target === 0 && next < SNAP_DB) next = 0;
      // The cut stays (none wanted and none left, or settled on its target to the last bit): the gain is
      // the one `to` already holds, the power of this very cut.
      if (next === now) continue;
      this.#cutDb[k] = next;
      // Exactly 1 when the cut is 0: the bypass is bit-exact.
      this.#to[k] = next === 0 ? 1 : 10 ** (-next / 20);
    }
  }
}

export interface VocalSpaceRender {
  /** 0..100. */
  amount: number;
  /** The whole vocal's profile; analysed from `vocal` when absent. */
  profile?: VocalSpaceProfile;
}

const RENDER_BLOCK = 4096;
/** Frames between progress reports and event-loop turns (~1.5 s of audio). */
const RENDER_YIELD = 1 << 16;

/**
 * The offline carve of a whole beat (in place), in the render's blocks; what the worklet does live. Reports
 * its fraction done and stops between blocks when the signal fires. Returns the profile it used.
 */
export const carveBeat = async (
  beat: Float32Array[],
  vocal: readonly Float32Array[],
  sampleRate: number,
  options: VocalSpaceRender,
  control: {
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    yieldFn?: () => Promise<void>;
  } = {},
): Promise<VocalSpaceProfile> => {
  const profile = options.profile ?? analyseVocalSpace(vocal, sampleRate);
  const frames = beat[0]?.length ?? 0;
  for (const ch of [...beat, ...vocal])
    if (ch.length !== frames) throw new RangeError('The vocal and the beat differ in length');
  if (options.amount <= 0) return profile;
  const processor = new VocalSpaceProcessor(sampleRate, beat.length, profile, options.amount);
  const yieldFn = control.yieldFn ?? yieldToEventLoop;
  for (let start = 0; start < frames; start += RENDER_BLOCK) {
    const end = Math.min(frames, start + RENDER_BLOCK);
    processor.process(beat, vocal, start, end);
    if ((end & (RENDER_YIELD - 1)) === 0 || end === frames) {
      control.onProgress?.(end / frames);
      control.signal?.throwIfAborted();
      await yieldFn();
      control.signal?.throwIfAborted();
    }
  }
  return profile;
};
