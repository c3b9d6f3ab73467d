/**
 * Versions of a master (issue 18): Main, Instrumental, A cappella, Vocal up and Vocal down, all through the
 * *same* master. The Main mix is mastered by renderMaster with a MasterTrace, which records every gain the
 * nonlinear stages chose (the compressor's or each band's control-point gains, the loudness gain and the
 * limiter's block gains). Each version then runs through a MasteringProcessor with the same settings and the
 * same adaptive plan (the same filters) replaying those gains, and gets the same loudness gain and limiter
 * gains. Every stage is then linear in the signal, so the versions line up sample for sample and
 * Instrumental + A cappella reproduces the Main up to float rounding (decision 150).
 *
 * A version may still pass the true-peak ceiling under the Main's gains (Vocal up; the A cappella where the
 * beat had masked the voice's peaks); a last safety limiter acts then, linked across Main, Instrumental and
 * A cappella so they keep nulling, and its deepest reduction is reported.
 */

import { TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import { MIX_VERSIONS, type MixVersion } from '../../shared/mix-versions';
import { yieldToEventLoop } from '../event-loop';
import type { AdaptivePlan } from './adaptive-plan';
import { LIMITER_BLOCK } from './limiter';
import { BlockAnalysis, BlockTruePeaks, type LimiterPlan, planLimiter } from './loudness-target';
import {
  applyPlannedGain,
  type MasteringReport,
  type MasterRenderOptions,
  type MasterTrace,
  type RenderControl,
  renderMaster,
} from './mastering-chain';
import { dynamicsTraceFor, MasteringProcessor, replayOf } from './mastering-processor';
import { StagedLimiterComputer } from './staged-limiter';
import { measureTruePeakDb } from './true-peak';

export { MIX_VERSIONS, type MixVersion };

/** Vocal up / down: the vocal bus moved by this much before the master (issue 18: ±1.5 dB). */
export const VOCAL_NUDGE_DB = 1.5;

/** The vocal bus's gain in each version (the instrumental bus is at unity in all but A cappella). */
export const VERSION_GAINS: Readonly<Record<MixVersion, { vocals: number; instrumental: number }>> = {
  main: { vocals: 1, instrumental: 1 },
  instrumental: { vocals: 0, instrumental: 1 },
  acappella: { vocals: 1, instrumental: 0 },
  'vocal-up': { vocals: 10 ** (VOCAL_NUDGE_DB / 20), instrumental: 1 },
  'vocal-down': { vocals: 10 ** (-VOCAL_NUDGE_DB / 20), instrumental: 1 },
};

/** A version's input: the two stems (the mixer's buses after its own shared limiter gain) weighted. */
export const versionInput = (
  version: MixVersion,
  stems: { vocals: readonly Float32Array[]; instrumental: readonly Float32Array[] },
): Float32Array[] => {
  const { vocals: gv, instrumental: gi } = VERSION_GAINS[version];
  return stems.instrumental.map((inst, c) => {
    const voice = stems.vocals[c]!;
    const out = new Float32Array(inst.length);
    for (let i = 0; i < out.length; i++) out[i] = inst[i]! * gi + voice[i]! * gv;
    return out;
  });
};

export interface VersionReport {
  version: MixVersion;
  /** True peak after the shared gains, before the safety limiter (dBTP). */
  sharedTruePeakDb: number;
  /** Deepest reduction of the safety limiter, dB (0 when it did nothing). */
  safetyGainDb: number;
  /** True peak of the delivered version (dBTP). */
  truePeakDb: number;
}

const BLOCK = 4096;

export interface VersionOptions {
  settings: MasterRenderOptions['settings'];
  /** The Main's adaptive plan (report.adaptive), so every version runs through the same filters. */
  adaptive: AdaptivePlan | null;
  ceilingDb: number;
}

/**
 * The shared part of a version's master, in place: the chain with the Main's recorded dynamics gains, then
 * the Main's loudness gain and limiter gains. Linear in the signal.
 */
export const renderSharedGains = async (
  channels: Float32Array[],
  sampleRate: number,
  options: VersionOptions,
  trace: MasterTrace,
  signal?: AbortSignal,
): Promise<void> => {
  const output = trace.output;
  if (!output) throw new Error('The Main must be mastered (with its trace) before its versions');
  const frames = channels[0]?.length ?? 0;
  const processor = new MasteringProcessor(sampleRate, channels.length, options.settings, options.adaptive);
  processor.setDynamicsTrace(replayOf(trace.dynamics));
  for (let start = 0; start < frames; start += BLOCK) {
    const end = Math.min(frames, start + BLOCK);
    processor.process(channels, start, end);
    if ((end & 0xffff) === 0) {
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
  }
  for (const ch of channels) applyPlannedGain(ch, output.boundaryGains, output.gain, 0, frames);
};

/**
 * Main, Instrumental and A cappella share one safety limiter (the deepest gain any of them needs, block by
 * block), so Instrumental + A cappella still equals the Main in the delivered files; Vocal up and Vocal down
 * each get their own.
 */
const NULL_GROUP: readonly MixVersion[] = ['main', 'instrumental', 'acappella'];

/**
 * The versions' last step: where a version passes the ceiling under the Main's gains, the master's own
 * true-peak limiter (same timing) is planned over its block true peaks at unity gain and applied
 * delay-compensated. `rendered` holds every version after renderSharedGains (the Main as mastered).
 */
export const applySafetyLimiters = (
  rendered: Partial<Record<MixVersion, Float32Array[]>>,
  sampleRate: number,
  ceilingDb: number,
  limiter: NonNullable<MasterTrace['output']>['limiter'],
): VersionReport[] => {
  const options = { ...limiter, ceilingDb };
  const peaks = new Map<MixVersion, number>();
  const plans = new Map<MixVersion, LimiterPlan>();
  for (const version of MIX_VERSIONS) {
    const channels = rendered[version];
    if (!channels) continue;
    const peak = measureTruePeakDb(channels);
    peaks.set(version, peak);
    if (peak > ceilingDb - 0.05) plans.set(version, safetyPlan(channels, sampleRate, options));
  }
  const group = NULL_GROUP.filter((v) => plans.has(v)).map((v) => plans.get(v)!);
  if (group.length > 0) {
    const linked = linkPlans(group);
    for (const v of NULL_GROUP) if (rendered[v]) plans.set(v, linked);
  }
  return MIX_VERSIONS.filter((v) => rendered[v]).map((version) => {
    const channels = rendered[version]!;
    const plan = plans.get(version);
    const frames = channels[0]!.length;
    if (plan) for (const ch of channels) applyPlannedGain(ch, plan.boundaryGains, 1, 0, frames);
    const sharedTruePeakDb = peaks.get(version)!;
    return {
      version,
      sharedTruePeakDb,
      safetyGainDb: plan ? plan.minGainDb : 0,
      truePeakDb: plan ? measureTruePeakDb(channels) : sharedTruePeakDb,
    };
  });
};

const safetyPlan = (
  channels: Float32Array[],
  sampleRate: number,
  options: NonNullable<MasterTrace['output']>['limiter'],
): LimiterPlan => {
  const frames = channels[0]!.length;
  const analysis = new BlockAnalysis(sampleRate, channels.length, frames);
  analysis.push(channels, 0, frames);
  // A safety net for the overs a version's own sum makes: the brickwall alone, never the peak compressor.
  const brickwall = { ...options, peakCompressor: undefined };
  const threshold = new StagedLimiterComputer(sampleRate, brickwall).detectFrom;
  const blockPeaks = new BlockTruePeaks(channels, analysis.sampleMax, threshold);
  blockPeaks.ensure(1);
  return planLimiter(blockPeaks.peaks, Math.ceil(frames / LIMITER_BLOCK), 1, sampleRate, brickwall);
};

/** The smallest gain of several plans at every block boundary. */
const linkPlans = (plans: readonly LimiterPlan[]): LimiterPlan => {
  const gains = Float64Array.from(plans[0]!.boundaryGains);
  for (const p of plans.slice(1))
    for (let b = 0; b < gains.length; b++)
      if (p.boundaryGains[b]! < gains[b]!) gains[b] = p.boundaryGains[b]!;
  return { boundaryGains: gains, minGainDb: Math.min(...plans.map((p) => p.minGainDb)) };
};

/**
 * Residual of `main` − Σ `parts`, in dB relative to the Main's RMS (the null test of issue 18): how far the
 * sum of the Instrumental and A cappella masters is from the Main master.
 */
export const residualDb = (main: readonly Float32Array[], parts: readonly (readonly Float32Array[])[]) => {
  let signal = 0;
  let error = 0;
  for (let c = 0; c < main.length; c++) {
    const m = main[c]!;
    for (let i = 0; i < m.length; i++) {
      let sum = 0;
      for (const p of parts) sum += p[c]![i]!;
      const d = m[i]! - sum;
      signal += m[i]! * m[i]!;
      error += d * d;
    }
  }
  return error === 0 ? -Infinity : 10 * Math.log10(error / signal);
};

export interface VersionsResult {
  /** The Main's master report (its loudness, gains and plan). */
  report: MasteringReport;
  /** The delivered channels of each version asked for (the Main always). */
  channels: Partial<Record<MixVersion, Float32Array[]>>;
  versions: VersionReport[];
  /** Main − (Instrumental + A cappella) as delivered, dB under the Main's RMS; null unless both were made. */
  residualDb: number | null;
}

/**
 * Masters the Main from the stems with its gains recorded, then every other version asked for with them
 * (decision 150). Progress: the Main's stages over the first half, one step per version after.
 */
export const masterVersions = async (
  stems: { vocals: readonly Float32Array[]; instrumental: readonly Float32Array[] },
  wanted: readonly MixVersion[],
  sampleRate: number,
  options: MasterRenderOptions,
  control: RenderControl = {},
): Promise<VersionsResult> => {
  const ceilingDb = options.ceilingDb ?? TRUE_PEAK_CEILING_DBTP;
  const frames = stems.instrumental[0]?.length ?? 0;
  const main = versionInput('main', stems);
  const trace: MasterTrace = { dynamics: dynamicsTraceFor(frames) };
  const others = MIX_VERSIONS.filter((v) => v !== 'main' && wanted.includes(v));
  const share = 0.5;
  const report = await renderMaster(
    main,
    sampleRate,
    { ...options, trace },
    {
      ...control,
      onProgress: (p) => control.onProgress?.({ stage: p.stage, fraction: p.fraction * share }),
    },
  );
  const channels: VersionsResult['channels'] = { main };
  const shared = { settings: options.settings, adaptive: report.adaptive, ceilingDb };
  for (const [index, version] of others.entries()) {
    const input = versionInput(version, stems);
    await renderSharedGains(input, sampleRate, shared, trace, control.signal);
    channels[version] = input;
    control.onProgress?.({
      stage: 'limiting',
      fraction: share + ((1 - share) * (index + 1)) / (others.length + 1),
    });
    await yieldToEventLoop();
    control.signal?.throwIfAborted();
  }
  const versions = applySafetyLimiters(channels, sampleRate, ceilingDb, trace.output!.limiter);
  control.onProgress?.({ stage: 'limiting', fraction: 1 });
  const residual =
    channels.instrumental && channels.acappella
      ? residualDb(main, [channels.instrumental, channels.acappella])
      : null;
  return { report, channels, versions, residualDb: residual };
};
