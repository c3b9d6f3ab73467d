/// <reference lib="webworker" />
/** Offline mastering render off the main thread: the same kernels the live AudioWorklet runs. */
import { type BandLevel, measureBandLevels } from '../dsp/band-levels';
import { LIMITER_BLOCK } from '../dsp/limiter';
import { planLaterPart } from '../dsp/limiter-plan-split';
import { BlockTruePeaks } from '../dsp/loudness-target';
import { masterVersions } from '../dsp/master-versions';
import {
  applyLimiterPlan,
  type LoudnessSolution,
  loudnessStart,
  planFor,
  renderMaster,
  solveLoudness,
} from '../dsp/mastering-chain';
import { runChainBack, runChainFront } from '../dsp/mastering-pipeline';
import { analyseTrack, trackLevels, trackSpectrum } from '../dsp/track-analysis';
import { closePeakShare, PeakShare } from '../dsp/true-peak-share';
import { measureVocalClarity } from '../dsp/vocal-clarity';
import { carveBeat } from '../dsp/vocal-space';
import type { MasterApi } from './master-protocol';
import { buffersOf, type RpcEndpoint, serveRpc, transferring } from './worker-rpc';

serveRpc<MasterApi>(self as unknown as RpcEndpoint, {
  master: async (
    { channels, sampleRate, settings, targetLufs, ceilingDb, tone, inputAnalysis, inputBands },
    { signal, progress },
  ) => {
    const report = await renderMaster(
      channels,
      sampleRate,
      { settings, targetLufs, ceilingDb, tone, inputAnalysis, inputBands },
      { signal, onProgress: progress },
    );
    return transferring({ channels, report }, buffersOf(channels));
  },
  versions: async (
    { vocals, instrumental, versions, sampleRate, settings, targetLufs, tone },
    { signal, progress },
  ) => {
    const result = await masterVersions(
      { vocals, instrumental },
      versions,
      sampleRate,
      { settings, targetLufs, tone },
      { signal, onProgress: progress },
    );
    return transferring(result, buffersOf(Object.values(result.channels).flat()));
  },
  plan: async ({ channels, sampleRate, settings, targetLufs, tone, analysis }, { signal, progress }) => {
    const report = await renderMaster(
      channels,
      sampleRate,
      { settings, targetLufs, planOnly: true, tone, analysis },
      { signal, onProgress: progress },
    );
    return {
      gainDb: report.gainDb,
      predictedLufs: report.predictedLufs,
      processedLufs: report.processedLufs,
      adaptive: report.adaptive,
    };
  },
  vocalSpace: async ({ beat, vocal, sampleRate, amount, profile }, { signal, progress }) => {
    // The clarity figure compares with the beat as it came: keep it until the carve is measured.
    const original = beat.map((c) => c.slice());
    const used = await carveBeat(
      beat,
      vocal,
      sampleRate,
      { amount, profile },
      {
        signal,
        onProgress: (fraction) => progress({ fraction: 0.8 * fraction }),
      },
    );
    const clarity = measureVocalClarity(vocal, original, beat, sampleRate, used);
    progress({ fraction: 1 });
    return transferring({ beat, vocal, profile: used, clarity }, [...buffersOf(beat), ...buffersOf(vocal)]);
  },
  analyse: async ({ channels, sampleRate }) => analyseTrack(channels, sampleRate),
  bandLevels: ({ channels, sampleRate }) => measureBandLevels(channels, sampleRate),
  trackLevels: ({ channels, sampleRate }) => trackLevels(channels, sampleRate),
  trackSpectrum: ({ channels }) => trackSpectrum(channels),
  chainFront: ({ channels, setup, memory }, { progress }) => runChainFront(channels, setup, memory, progress),
  chainBack: ({ channels, setup, memory }) => {
    const back = runChainBack(channels, setup, memory);
    const { measurement } = back;
    return {
      measurement,
      start: loudnessStart(measurement.energy, setup.frames, setup.sampleRate, setup.options),
      adaptive: planFor(setup.analysis, setup.channels, setup.options),
      dynamics: back.stats.compressors(),
    };
  },
  helpSolve: ({ channels, sampleMax, head, sampleRate, bands }) => {
    const share = head.share;
    if (!share) throw new TypeError('helpSolve needs the solve to share its block true peaks');
    const peaks = new BlockTruePeaks(channels, sampleMax, head.start.threshold, head.storage);
    const blocks = Math.ceil(channels[0]!.length / LIMITER_BLOCK);
    const measure = bands ? () => measureBandLevels(bands, sampleRate) : null;
    let levels: BandLevel[] | null = null;
    new PeakShare(share, sampleMax.length).serve(
      (gain, from, to) => peaks.ensureRange(gain, from, to),
      (gain) => {
        if (!share.plan) throw new TypeError('a plan was asked for without memory to split it');
        planLaterPart(peaks.peaks, blocks, gain, sampleRate, head.start.limiter, share.plan);
      },
      measure
        ? () => {
            levels = measure();
          }
        : undefined,
    );
    return levels ?? measure?.() ?? null;
  },
  solveLoudness: async ({ channels, measurement, setup, head }, { signal, progress }) => {
    let solution: LoudnessSolution;
    try {
      solution = await solveLoudness(
        channels,
        measurement.energy,
        measurement.sampleMax,
        setup.sampleRate,
        setup.options,
        { signal, onProgress: progress },
        head,
      );
    } finally {
      // The helper (helpSolve) ends with the solve, whichever way it ends.
      if (head.share) closePeakShare(head.share);
    }
    // The limiter's block gains (8 bytes per 16 frames: 13 MB for 10 minutes) go back on shared memory, so the
    // page hands them to both workers' final pass without cloning them three times on its own thread. The
    // split plan makes them there already; the single plan (a peak compressor's summary) is copied.
    const gains = solution.plan.boundaryGains;
    if (gains.buffer instanceof SharedArrayBuffer) return solution;
    const boundaryGains = new Float64Array(new SharedArrayBuffer(gains.byteLength));
    boundaryGains.set(gains);
    return { ...solution, plan: { ...solution.plan, boundaryGains } };
  },
  applyLimiter: async ({ channels, gainDb, boundaryGains, from, to }, { signal, progress }) => {
    await applyLimiterPlan(channels, { gainDb, boundaryGains }, from, to, { signal, onProgress: progress });
    return null;
  },
});
