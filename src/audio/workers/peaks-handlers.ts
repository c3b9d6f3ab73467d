/** The peaks worker's handlers, apart from the worker entry so they can be served over any message port. */
import { computePeaks } from '../dsp/peaks';
import { throttleProgress, yieldEvery } from './encode-yield';
import type { PeaksApi } from './peaks-protocol';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

export const createPeaksHandlers = (): RpcHandlers<PeaksApi> => ({
  peaks: async ({ channels, levels }, { signal, progress }) => {
    const report = throttleProgress(progress, (f) => f >= 1);
    const pause = yieldEvery();
    const out = await computePeaks(
      channels,
      levels,
      async (fraction) => {
        report(fraction);
        await pause();
        throwIfAborted(signal);
      },
      8192,
    );
    return transferring({ levels: out }, buffersOf(out.flatMap((l) => [l.min, l.max])));
  },
});
