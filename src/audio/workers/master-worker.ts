/// <reference lib="webworker" />
/** Offline mastering render off the main thread: the same kernels the live AudioWorklet runs. */
import { masterVersions } from '../dsp/master-versions';
import { renderMaster } from '../dsp/mastering-chain';
import { analyseTrack } from '../dsp/track-analysis';
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
  analyse: async ({ channels, sampleRate }) => analyseTrack(channels, sampleRate),
});
