/**
 * Issue 26: the adaptive vocal chain as the mixdown runs it. The plan (src/audio/dsp/vocal/vocal-chain.ts)
 * says what each stage does; this class holds the stages' state and applies them to the mixdown's mono
 * voice, block by block, on the timeline's clock (a preview window starts `windowStart` samples in, and the
 * analysis' times are the whole timeline's). The same class runs in the mix worker for the export and for
 * the preview, so both hear the same chain.
 */
import type { Genre } from '../../shared/genres';
import { designBiquad } from '../dsp/biquad';
import { Compressor, type CompressorParams } from '../dsp/compressor';
import { DynamicsStats } from '../dsp/dynamics-stats';
import { type FinishedRange, PipelinedCascade } from '../dsp/pipelined-cascade';
import type { VocalAnalysis } from '../dsp/vocal/analyse-vocal';
import { FRAME_SILENCE } from '../dsp/vocal/analyse-vocal';
import { denoiseInPlace } from '../dsp/vocal/denoise';
import { DynamicBand } from '../dsp/vocal/dynamic-band';
import { lowerBreaths, repairClicks, repairClipped } from '../dsp/vocal/repair';
import { applyRide, type RideCurve, rideCurve } from '../dsp/vocal/rider';
import {
  BREATH_LOWER_DB,
  MAX_NOISE_REDUCTION_DB,
  type VocalChainAmounts,
  type VocalChainPlan,
  type VocalChainReport,
  vocalChainPlan,
} from '../dsp/vocal/vocal-chain';
import { spaceParamsFor, VocalSpaceFx } from '../dsp/vocal/vocal-space-fx';
import { MAX_CUT_DB } from '../dsp/vocal-space';
import { weightsForShare } from '../model/mix-styles';

const shifted = <T extends { start: number; end: number }>(ranges: readonly T[], by: number): T[] =>
  ranges.map((r) => ({ ...r, start: r.start - by, end: r.end - by }));

export class MixVocalChain {
  readonly plan: VocalChainPlan;
  readonly #analysis: VocalAnalysis;
  readonly #sr: number;
  readonly #windowStart: number;
  readonly #tempoBpm: number | undefined;
  readonly #ride: RideCurve;
  #eq: PipelinedCascade | null = null;
  #dynamicEq: DynamicBand[] = [];
  #deEsser: DynamicBand | null = null;
  #compressorStats = new DynamicsStats();
  #space: VocalSpaceFx | null = null;
  #report: VocalChainReport;

  constructor(
    analysis: VocalAnalysis,
    genre: Genre,
    amounts: VocalChainAmounts | undefined,
    sampleRate: number,
    tempoBpm: number | undefined,
    windowStart = 0,
  ) {
    this.#analysis = analysis;
    this.#sr = sampleRate;
    this.#windowStart = windowStart;
    this.#tempoBpm = tempoBpm;
    this.plan = vocalChainPlan(analysis, genre, amounts);
    this.#ride = rideCurve(analysis, this.plan.ride);
    this.#report = {
      genre,
      noiseRemovedDb: 0,
      breathsLowered: 0,
      breathLowerDb: 0,
      clicksRepaired: 0,
      clippedRepaired: 0,
      ridingMinDb: this.plan.amounts.riding > 0 ? this.#ride.minDb : 0,
      ridingMaxDb: this.plan.amounts.riding > 0 ? this.#ride.maxDb : 0,
      eqMoves: [],
      deEssBandHz: null,
      deEssMaxDb: 0,
      deEssMeanDb: 0,
      compressorMaxDb: 0,
      compressorRatio: 1,
      reverbDecaySeconds: 0,
      reverbWet: 0,
      delaySeconds: 0,
      delayWet: 0,
      tempoBpm: tempoBpm ?? null,
      spaceDuckMaxDb: 0,
      unmaskingAmount: 0,
      unmaskingMaxDb: 0,
    };
  }

  get amounts() {
    return this.plan.amounts;
  }

  /**
   * Cleanup of the voice (already at the mixdown's gain `gain`): clipped peaks redrawn, clicks removed,
   * breaths lowered, then the spectral noise reduction from the print (scaled by the gain).
   */
  async cleanup(voice: Float32Array, gain: number, tick: (f: number) => Promise<void>): Promise<void> {
    const a = this.plan.amounts.cleanup;
    if (a <= 0) return tick(1);
    const by = this.#windowStart / this.#sr;
    this.#report.clippedRepaired = repairClipped(voice, shifted(this.#analysis.clipped, by), this.#sr);
    this.#report.clicksRepaired = repairClicks(voice, this.#sr);
    const breathDb = BREATH_LOWER_DB * a;
    lowerBreaths(voice, shifted(this.#analysis.breaths, by), this.#sr, breathDb);
    this.#report.breathsLowered = this.#analysis.breaths.length;
    this.#report.breathLowerDb = breathDb;
    await tick(0.1);
    const print = this.#analysis.noisePrint;
    if (print.sampleRate !== this.#sr || print.frames === 0) return tick(1);
    const g = 20 * Math.log10(gain || 1e-12);
    const scaled = { ...print, magnitudesDb: print.magnitudesDb.map((db) => db + g) };
    const { hopSeconds, classes } = this.#analysis.voicing;
    const isPause = (s: number) => classes[Math.round((s + by) / hopSeconds)] === FRAME_SILENCE;
    const r = await denoiseInPlace(
      voice,
      scaled,
      { maxReductionDb: MAX_NOISE_REDUCTION_DB * a },
      (f) => tick(0.1 + 0.9 * f),
      isPause,
    );
    this.#report.noiseRemovedDb = Math.round(r.pauseReductionDb * 10) / 10;
  }

  ride(voice: Float32Array, start: number, end: number): void {
    if (this.plan.amounts.riding > 0) applyRide(voice, this.#ride, this.#sr, start, end, this.#windowStart);
  }

  /**
   * The adaptive EQ (static bands, then the dynamic harsh band) and the de-esser, over the blocks [start, end)
   * in order. The static bands run a block behind themselves (PipelinedCascade, decision 290), so the dynamic
   * band and the de-esser follow on the block the bands finished: the one before this one, and the last at
   * `finishEqAndDeEss`. Each stage sees the same blocks as one pass per block would give it, bit for bit.
   */
  eqAndDeEss(voice: Float32Array, start: number, end: number): void {
    if (!this.#eq) {
      const statics = this.plan.eq.filter((m) => !m.dynamic);
      this.#eq = new PipelinedCascade(statics.map((m) => designBiquad(m.design, this.#sr)));
      this.#dynamicEq = this.plan.eq.flatMap((m) =>
        m.dynamic ? [new DynamicBand(this.#sr, m.dynamic)] : [],
      );
      this.#deEsser = this.plan.deEsser ? new DynamicBand(this.#sr, this.plan.deEsser) : null;
      this.#report.eqMoves = this.plan.eq.map((m) => ({
        band: m.band,
        frequencyHz: m.design.frequency,
        gainDb: m.design.gainDb ?? 0,
        dynamic: m.dynamic !== undefined,
      }));
    }
    // The high-pass is always there (as in the fixed chain); the other bands are 0 dB when the stage is off.
    this.#dynamics(voice, this.#eq.push(voice, start, end));
  }

  /** The last block of `eqAndDeEss`, which the static bands still held. */
  finishEqAndDeEss(voice: Float32Array): void {
    if (this.#eq) this.#dynamics(voice, this.#eq.finish(voice));
  }

  #dynamics(voice: Float32Array, range: FinishedRange | null): void {
    if (!range) return;
    for (const d of this.#dynamicEq) d.process(voice, range.start, range.end);
    this.#deEsser?.process(voice, range.start, range.end);
  }

  compressorParams(voiceLufs: number): CompressorParams {
    const { compressor, compressorOffsetDb } = this.plan;
    return {
      ...compressor,
      thresholdDb: (Number.isFinite(voiceLufs) ? voiceLufs : -20) + compressorOffsetDb,
    };
  }

  createCompressor(voiceLufs: number): Compressor {
    const c = new Compressor(this.#sr, this.compressorParams(voiceLufs));
    c.stats = this.#compressorStats;
    this.#report.compressorRatio = Math.round(c.bypassed ? 1 : this.plan.compressor.ratio * 10) / 10;
    return c;
  }

  /** The space's returns, or null when the stage is off (then the voice stays dry). */
  createSpace(voiceLufs: number, block: number): VocalSpaceFx | null {
    const a = this.plan.amounts.space;
    if (a <= 0) return null;
    const params = spaceParamsFor(
      this.plan.target,
      this.#tempoBpm,
      Number.isFinite(voiceLufs) ? voiceLufs : -20,
      a,
    );
    this.#report.reverbDecaySeconds = params.reverbDecaySeconds;
    this.#report.reverbWet = Math.round(params.reverbWet * 100) / 100;
    this.#report.delaySeconds = Math.round(params.delaySeconds * 1000) / 1000;
    this.#report.delayWet = Math.round(params.delayWet * 100) / 100;
    this.#space = new VocalSpaceFx(this.#sr, params, block);
    return this.#space;
  }

  /**
   * The beat's carve (0..100 of the vocal-space processor): the genre's depth, scaled by the mix style (a
   * voice put forward needs the beat to give way more; an instrumental put forward, less).
   */
  unmaskAmount(vocalShare: number): number {
    const a = this.plan.amounts.unmasking;
    if (a <= 0) return 0;
    const style = Math.min(1.2, Math.max(0.4, weightsForShare(vocalShare).vocals / 0.5 / 1.25));
    return Math.min(100, (100 * this.plan.target.carveDepthDb * a * style) / MAX_CUT_DB);
  }

  noteUnmasking(amount: number): void {
    this.#report.unmaskingAmount = Math.round(amount);
    this.#report.unmaskingMaxDb = Math.round(((MAX_CUT_DB * amount) / 100) * 10) / 10;
  }

  report(): VocalChainReport {
    const r = this.#report;
    if (this.#deEsser && this.plan.deEsser) {
      r.deEssBandHz = [this.#analysis.sibilance.loHz, this.#analysis.sibilance.hiHz];
      r.deEssMaxDb = Math.round(this.#deEsser.maxCutDb * 10) / 10;
      r.deEssMeanDb = Math.round(this.#deEsser.meanActiveCutDb * 10) / 10;
    }
    r.compressorMaxDb = Math.round(this.#compressorStats.summary().maxDb * 10) / 10;
    if (this.#space) r.spaceDuckMaxDb = Math.round(this.#space.maxDuckDb * 10) / 10;
    return { ...r, eqMoves: r.eqMoves.map((m) => ({ ...m })) };
  }
}
