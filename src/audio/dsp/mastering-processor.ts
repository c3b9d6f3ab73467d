/**
 * The spec-9 mastering chain up to (not including) the loudness stage, as one streaming kernel:
 * high-pass 30 Hz -> [corrective tone EQ] -> compressor [three bands, thresholds from the measured crest] -> warmth low shelf 200 Hz -> brightness high shelf
 * 8 kHz -> peaking 3 kHz -> mid/side width [with the bass kept mono]. The bracketed stages come from the
 * track's analysis (an AdaptivePlan, decision 112); without a plan the chain is the spec's as before. The AudioWorklet (live) and the Worker (offline render) both run this class, so what
 * the user hears while moving a slider is what the download renders.
 */
import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan } from './adaptive-plan';
import { BiquadCascade, type BiquadCoefficients, designBiquad } from './biquad';
import {
  Compressor,
  type CompressorParams,
  compressorParamsFor,
  type GainTrace,
  gainTraceFor,
} from './compressor';
import type { ChainStats } from './dynamics-stats';
import { FRONT_BANDS, MultibandCompressor, multibandParamsFor } from './multiband-compressor';
import { applyStereoWidth, MonoBassWidth } from './stereo-width';
import { TONE_EQ_GRID, toneEqSections } from './tone-eq';
import { masteringTail } from './wasm/mastering-tail';

export interface MasteringChainParams {
  highpass: BiquadCoefficients;
  lowShelf: BiquadCoefficients;
  highShelf: BiquadCoefficients;
  peaking: BiquadCoefficients;
  compressor: CompressorParams;
  stereoWidth: number;
  /** The gains in dB, for display and tests. */
  warmthDb: number;
  brightnessDb: number;
  presenceDb: number;
}

/** Warmth and brightness 0..100 map linearly to -6..+6 dB around 50 (spec 9: "plus or minus 6 dB"). */
export const shelfGainDb = (value: number): number => ((Math.min(100, Math.max(0, value)) - 50) / 50) * 6;

/** Spec 9: the 3 kHz peaking filter's gain is min(brightness / 25, 3) dB. */
export const presenceGainDb = (brightness: number): number => Math.min(Math.max(0, brightness) / 25, 3);

export const masteringChainParams = (
  settings: MasteringSettings,
  sampleRate: number,
): MasteringChainParams => {
  const warmthDb = shelfGainDb(settings.warmth);
  const brightnessDb = shelfGainDb(settings.brightness);
  const presenceDb = presenceGainDb(settings.brightness);
  return {
    highpass: designBiquad({ kind: 'highpass', frequency: 30, q: Math.SQRT1_2 }, sampleRate),
    lowShelf: designBiquad({ kind: 'lowshelf', frequency: 200, gainDb: warmthDb }, sampleRate),
    highShelf: designBiquad({ kind: 'highshelf', frequency: 8000, gainDb: brightnessDb }, sampleRate),
    peaking: designBiquad({ kind: 'peaking', frequency: 3000, gainDb: presenceDb, q: 1 }, sampleRate),
    compressor: compressorParamsFor(settings.compression),
    stereoWidth: settings.stereoWidth,
    warmthDb,
    brightnessDb,
    presenceDb,
  };
};

/**
 * The gain curves of the chain's dynamic stages over one render: the single-band compressor's and each of
 * the three bands'. Recorded while the Main mix is mastered, replayed on every version (decision 150).
 */
export interface DynamicsTrace {
  single: GainTrace;
  bands: [GainTrace, GainTrace, GainTrace];
}

export const dynamicsTraceFor = (frames: number): DynamicsTrace => ({
  single: gainTraceFor(frames),
  bands: [gainTraceFor(frames), gainTraceFor(frames), gainTraceFor(frames)],
});

/** The same curves, read back instead of recorded. */
export const replayOf = (trace: DynamicsTrace): DynamicsTrace => {
  const replay = (t: GainTrace): GainTrace => ({ mode: 'replay', targets: t.targets });
  return {
    single: replay(trace.single),
    bands: [replay(trace.bands[0]), replay(trace.bands[1]), replay(trace.bands[2])],
  };
};

export class MasteringProcessor {
  readonly sampleRate: number;
  readonly channelCount: number;
  #highpass: BiquadCascade;
  #eq: BiquadCascade;
  #compressor: Compressor;
  #width = 50;
  /** The corrective EQ; null until a plan with any non-zero gain arrives (no cost for the spec chain). */
  #tone: BiquadCascade | null = null;
  #stereo: MonoBassWidth;
  /** Replaces the single-band compressor when a plan brings band dynamics; built on first use. */
  #multiband: MultibandCompressor | null = null;
  #bandDynamics: AdaptivePlan['bandDynamics'] = null;
  #compression = 0;
  #stats: ChainStats | null = null;
  #trace: DynamicsTrace | null = null;

  constructor(
    sampleRate: number,
    channelCount: number,
    settings: MasteringSettings,
    adaptive?: AdaptivePlan | null,
  ) {
    this.sampleRate = sampleRate;
    this.channelCount = channelCount;
    this.#highpass = new BiquadCascade(1, channelCount);
    this.#eq = new BiquadCascade(3, channelCount);
    this.#stereo = new MonoBassWidth(sampleRate);
    const params = masteringChainParams(settings, sampleRate);
    this.#compressor = new Compressor(sampleRate, params.compressor);
    this.#apply(params);
    this.#compression = settings.compression;
    this.setAdaptive(adaptive ?? null);
  }

  /** New settings keep the filters' and detector's state, so a slider move does not click. */
  update(settings: MasteringSettings): void {
    this.#apply(masteringChainParams(settings, this.sampleRate));
    this.#compression = settings.compression;
    this.#applyMultiband();
  }

  #applyMultiband(): void {
    if (!this.#bandDynamics) return;
    const params = multibandParamsFor(this.#compression, this.#bandDynamics);
    if (this.#multiband) this.#multiband.setParams(params);
    else {
      this.#multiband = new MultibandCompressor(this.sampleRate, this.channelCount, params);
      this.#multiband.attachStats(this.#stats?.bands ?? null);
      this.#multiband.setTraces(this.#trace?.bands ?? null);
    }
  }

  /** Collects the compressors' gain reduction into `stats` from now on (the offline render's, decision 126). */
  attachStats(stats: ChainStats | null): void {
    this.#stats = stats;
    this.#compressor.stats = stats?.compressor ?? null;
    this.#multiband?.attachStats(stats?.bands ?? null);
  }

  /** Record the dynamics' gain curves, or replay recorded ones (versions, decision 150); null: neither. */
  setDynamicsTrace(trace: DynamicsTrace | null): void {
    this.#trace = trace;
    this.#compressor.trace = trace?.single ?? null;
    this.#multiband?.setTraces(trace?.bands ?? null);
  }

  /** The multiband path runs when a plan brought band dynamics and the amount is above zero. */
  get #useMultiband(): boolean {
    return this.#multiband !== null && this.#bandDynamics !== null && this.#compression > 0;
  }

  /** The analysis-driven stages; the filters keep their state, so a new plan does not click. */
  setAdaptive(plan: AdaptivePlan | null): void {
    const gains = plan?.toneEqDb ?? [];
    const grid = plan?.eqGrid ?? TONE_EQ_GRID;
    if (gains.some((g) => g !== 0) || this.#tone) {
      // A plan on another grid (curve match <-> reference) needs a cascade of its size.
      if (this.#tone?.sections !== grid.hz.length)
        this.#tone = new BiquadCascade(grid.hz.length, this.channelCount);
      const tone = this.#tone;
      toneEqSections(gains, this.sampleRate, grid).forEach((c, i) => {
        tone.setSection(i, c);
      });
    }
    this.#stereo.setFrequency(plan?.bassMonoHz ?? 0, plan?.bassFromSide ?? false);
    this.#stereo.setSideEq(plan?.sideEqDb ? toneEqSections(plan.sideEqDb, this.sampleRate, grid) : null);
    this.#bandDynamics = plan?.bandDynamics ?? null;
    this.#applyMultiband();
  }

  #apply(params: MasteringChainParams): void {
    this.#highpass.setSection(0, params.highpass);
    this.#eq.setSection(0, params.lowShelf);
    this.#eq.setSection(1, params.highShelf);
    this.#eq.setSection(2, params.peaking);
    this.#compressor.setParams(params.compressor);
    this.#width = params.stereoWidth;
  }

  reset(): void {
    this.#highpass.reset();
    this.#tone?.reset();
    this.#stereo.reset();
    this.#eq.reset();
    this.#compressor.reset();
    this.#multiband?.reset();
  }

  /**
   * True when the chain splits into bands between `front` and `back` (the multiband compressor): the
   * two-worker render then hands the bands over instead of the channels (decision 141).
   */
  get splitsBands(): boolean {
    return this.#useMultiband;
  }

  /** Processes `channels[c][start..end)` in place: `front` then `back` on the same block. */
  process(channels: readonly Float32Array[], start: number, end: number): void {
    this.front(channels, start, end);
    this.back(channels, start, end);
  }

  /**
   * The first half of the chain: high-pass, corrective EQ, then either the compressor (in place) or, when
   * `splitsBands`, the multiband crossover into `bands` (default: the crossover's own scratch) and the low
   * band's compressor.
   */
  front(
    channels: readonly Float32Array[],
    start: number,
    end: number,
    bands?: readonly (readonly Float32Array[])[],
  ): void {
    const count = Math.min(this.channelCount, channels.length);
    if (count === 2) {
      const filters = this.#tone ? [this.#highpass, this.#tone] : [this.#highpass];
      BiquadCascade.processStereoChain(filters, channels[0]!, channels[1]!, start, end);
    } else {
      for (let c = 0; c < count; c++) this.#highpass.process(channels[c]!, c, start, end);
      if (this.#tone) for (let c = 0; c < count; c++) this.#tone.process(channels[c]!, c, start, end);
    }
    if (this.#useMultiband) {
      const multiband = this.#multiband!;
      multiband.split(channels, start, end, bands);
      multiband.compress(bands ?? multiband.bands, 0, FRONT_BANDS, end - start);
    } else this.#compressor.process(channels, start, end);
  }

  /**
   * The second half, on the block `front` produced: the other bands' compressors and the sum (when
   * `splitsBands`; `bands` as handed to `front`), the shelves and presence peak, width with mono bass.
   */
  back(
    channels: readonly Float32Array[],
    start: number,
    end: number,
    bands?: readonly (readonly Float32Array[])[],
  ): void {
    const count = Math.min(this.channelCount, channels.length);
    if (count === 2 && this.#backInWasm(channels, start, end, bands)) return;
    if (this.#useMultiband)
      this.#multiband!.combine(bands ?? this.#multiband!.bands, channels, start, end, FRONT_BANDS);
    if (count === 2) this.#eq.processStereo(channels[0]!, channels[1]!, start, end);
    else for (let c = 0; c < count; c++) this.#eq.process(channels[c]!, c, start, end);
    this.#stereo.process(channels, this.#width, start, end);
  }

  /**
   * `back` on a stereo block through the fused kernel (mastering-tail.ts, decision 315): the same samples
   * and the same filter state after. False (nothing done) where it does not run: no WebAssembly SIMD, or a
   * side EQ (reference mastering), which stays in JavaScript.
   */
  #backInWasm(
    channels: readonly Float32Array[],
    start: number,
    end: number,
    bands?: readonly (readonly Float32Array[])[],
  ): boolean {
    const tail = masteringTail();
    const mono = this.#stereo.lanesFor(this.#width);
    if (!tail || (!mono && this.#stereo.active)) return false;
    const multiband = this.#useMultiband ? this.#multiband! : null;
    const split = multiband ? (bands ?? multiband.bands) : null;
    // The bands' compressors in their own kernel, whose memory the tail shares: three bands of one chunk
    // stay there for the tail to sum (decision 321), else they come back to `split`. Combine's order.
    const kept =
      multiband !== null && end > start && multiband.compress(split!, FRONT_BANDS, 3, end - start, true);
    tail.run(BiquadCascade.part(this.#eq), mono, split, channels[0]!, channels[1]!, start, end, kept);
    if (!mono) applyStereoWidth(channels, this.#width, start, end);
    return true;
  }
}
