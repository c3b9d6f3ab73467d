import type { LoudnessReport } from '../dsp/loudness';
import { copyChannelsInSlices } from '../sliced-copy';
import type { PlatformApi } from './platform-protocol';
import { buffersOf, RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./platform-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the platform-preview worker. The channels are copied (the master stays playable). */
export class PlatformClient {
  #rpc: RespawningRpcClient<PlatformApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<PlatformApi>(factory);
  }

  async spotifyLoud(
    channels: Float32Array[],
    sampleRate: number,
    gainDb: number,
    options: { signal?: AbortSignal; onProgress?: (f: number) => void } = {},
  ): Promise<{ channels: Float32Array[]; loudness: LoudnessReport }> {
    const work = await copyChannelsInSlices(channels);
    return this.#rpc.call(
      'spotifyLoud',
      { channels: work, sampleRate, gainDb },
      { signal: options.signal, onProgress: options.onProgress, transfer: buffersOf(work) },
    );
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
