/** The listening worker's handlers, apart from the worker entry so tests serve them over a message port. */
import { suggestBeatGenre } from '../dsp/genre-suggest';
import { combineAnalysis, trackLevels, trackSpectrum } from '../dsp/track-analysis';
import { analyseVocal } from '../dsp/vocal/analyse-vocal';
import { yieldToEventLoop } from '../event-loop';
import { throttleProgress } from './encode-yield';
import type { ListenApi } from './listen-protocol';
import { type RpcHandlers, throwIfAborted } from './worker-rpc';

export const createListenHandlers = (): RpcHandlers<ListenApi> => ({
  beat: async ({ channels, sampleRate, tempoBpm }, { signal, progress, hold }) => {
    // The two halves of the mastering page's analysis, with a chance to cancel between them; both hold at
    // the page's pause gate between blocks (a background job, workers/pause-gate.ts).
    progress(0);
    const levels = trackLevels(channels, sampleRate, hold);
    progress(0.6);
    await yieldToEventLoop();
    throwIfAborted(signal);
    const spectrum = trackSpectrum(channels, { checkpoint: hold });
    progress(1);
    return suggestBeatGenre(combineAnalysis(levels, spectrum), tempoBpm);
  },
  vocal: ({ channels, sampleRate, genre }, { progress, hold }) => {
    // analyseVocal runs in one synchronous go (about a second for a 4-minute take): a cancel rejects the
    // page's promise at once, and the worker's late answer is dropped by the rpc layer. Every progress call
    // (every few milliseconds) is a checkpoint at the page's pause gate; the page hears a few of them.
    const report = throttleProgress(progress, (f) => f >= 1);
    return analyseVocal(channels, sampleRate, genre, (f) => {
      hold();
      report(f);
    });
  },
});
