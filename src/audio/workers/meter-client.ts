import type { BandLevel } from '../dsp/band-levels';
import type { LoudnessReport } from '../dsp/loudness';
import type { FoldDown } from '../dsp/mono-fold-down';
import { copyChannelsInSlices } from '../sliced-copy';
import type { MeterApi } from './meter-protocol';
import { buffersOf, RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./meter-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the meter worker. */
export class MeterClient {
  #rpc: RespawningRpcClient<MeterApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<MeterApi>(factory);
  }

  /**
   * Measures the channels. They are copied to the worker unless `transfer` is set; with `transfer` the
   * returned `channels` are the caller's samples, handed back.
   */
  async measure(
    channels: Float32Array[],
    sampleRate: number,
    options: {
      bands?: boolean;
      truePeak?: boolean;
      foldDown?: boolean;
      transfer?: boolean;
      signal?: AbortSignal;
      onProgress?: (f: number) => void;
    } = {},
  ): Promise<{
    channels: Float32Array[];
    loudness: LoudnessReport;
    bands: BandLevel[] | null;
    foldDown: FoldDown | null;
  }> {
    const work = options.transfer ? channels : await copyChannelsInSlices(channels);
    return this.#rpc.call(
      'measure',
      {
        channels: work,
        sampleRate,
        bands: options.bands,
        truePeak: options.truePeak,
        foldDown: options.foldDown,
      },
      { signal: options.signal, onProgress: options.onProgress, transfer: buffersOf(work) },
    );
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
