/// <reference lib="webworker" />
/** Waveform peaks at several zoom levels, off the main thread. */
import { computePeaks } from '../dsp/peaks';
import { yieldToEventLoop } from './encode-yield';
import type { PeaksApi } from './peaks-protocol';
import { buffersOf, type RpcEndpoint, serveRpc, throwIfAborted, transferring } from './worker-rpc';

serveRpc<PeaksApi>(self as unknown as RpcEndpoint, {
  peaks: async ({ channels, levels }, { signal, progress }) => {
    const out = await computePeaks(
      channels,
      levels,
      async (fraction) => {
        progress(fraction);
        await yieldToEventLoop();
        throwIfAborted(signal);
      },
      8192,
    );
    return transferring({ levels: out }, buffersOf(out.flatMap((l) => [l.min, l.max])));
  },
});
