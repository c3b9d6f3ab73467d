/// <reference lib="webworker" />
/** Loudness, loudness range, true peak and band levels off the main thread. */
import { measureBandLevels } from '../dsp/band-levels';
import { LoudnessMeter } from '../dsp/loudness';
import { measureFoldDown } from '../dsp/mono-fold-down';
import { yieldToEventLoop } from '../event-loop';
import type { MeterApi } from './meter-protocol';
import { buffersOf, type RpcEndpoint, serveRpc, throwIfAborted, transferring } from './worker-rpc';

/** Frames per step between event-loop turns (so a cancel can arrive). */
const STEP = 1 << 17;

serveRpc<MeterApi>(self as unknown as RpcEndpoint, {
  measure: async ({ channels, sampleRate, bands, truePeak, foldDown }, { signal, progress }) => {
    const frames = channels[0]?.length ?? 0;
    const meter = new LoudnessMeter(sampleRate, channels.length, { truePeak: truePeak !== false });
    for (let start = 0; start < frames; start += STEP) {
      const end = Math.min(frames, start + STEP);
      meter.push(channels, start, end);
      progress(end / frames);
      await yieldToEventLoop();
      throwIfAborted(signal);
    }
    const loudness = meter.report();
    const bandLevels = bands ? measureBandLevels(channels, sampleRate) : null;
    const fold = foldDown ? measureFoldDown(channels, sampleRate, loudness.integratedLufs) : null;
    return transferring({ channels, loudness, bands: bandLevels, foldDown: fold }, buffersOf(channels));
  },
});
