/** The song-facts worker's handlers, apart from the worker entry so they can be served over any message port. */
import { analyzeSongFacts } from '../dsp/song-facts/analyze';
import { throttleProgress, yieldEvery } from './encode-yield';
import type { SongFactsApi } from './song-facts-protocol';
import { type RpcHandlers, throwIfAborted } from './worker-rpc';

export const createSongFactsHandlers = (): RpcHandlers<SongFactsApi> => ({
  analyze: async ({ channels, sampleRate }, { signal, progress, hold }) => {
    const report = throttleProgress(progress, (f) => f >= 1);
    const pause = yieldEvery();
    // Between blocks: hold at the page's pause gate (a background job, workers/pause-gate.ts), report, and
    // now and then read the messages (a cancel).
    const result = await analyzeSongFacts(channels, sampleRate, async (fraction) => {
      hold();
      report(fraction);
      await pause();
      throwIfAborted(signal);
    });
    return { facts: result.facts, ...(result.relativeOf ? { relativeOf: result.relativeOf } : {}) };
  },
});
