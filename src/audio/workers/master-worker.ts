/// <reference lib="webworker" />
/** Offline mastering render off the main thread: the same kernels the live AudioWorklet runs. */
import { masterVersions } from '../dsp/master-versions';
import { renderMaster } from '../dsp/mastering-chain';
import { analyseTrack } from '../dsp/track-analysis';
import { measureVocalClarity } from '../dsp/vocal-clarity';
import { carveBeat } from '../dsp/vocal-space';
import type { MasterApi } from './master-protocol';
import { buffersOf, type RpcEndpoint, serveRpc, transferring } from './worker-rpc';

serveRpc<MasterApi>(self as unknown as RpcEndpoint, {
  master: async ({ channels, sampleRate, settings, targetLufs, ceilingDb, tone }, { signal, progress }) => {
    const report = await renderMaster(
      channels,
      sampleRate,
      { settings, targetLufs, ceilingDb, tone },
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
});
