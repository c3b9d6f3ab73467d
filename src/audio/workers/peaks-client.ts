import type { PeakLevel } from '../dsp/peaks';
import type { PeaksApi } from './peaks-protocol';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./peaks-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the peaks worker. Channels are copied unless `transfer` is set. */
export class PeaksClient {
  #rpc: RespawningRpcClient<PeaksApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<PeaksApi>(factory);
  }

  async peaks(
    channels: Float32Array[],
    options: {
      levels?: number[];
      signal?: AbortSignal;
      onProgress?: (f: number) => void;
      transfer?: boolean;
    } = {},
  ): Promise<PeakLevel[]> {
    const transfer = options.transfer
      ? [...new Set(channels.map((c) => c.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
      : [];
    const { levels } = await this.#rpc.call(
      'peaks',
      { channels, levels: options.levels },
      { signal: options.signal, onProgress: options.onProgress, transfer },
    );
    return levels;
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
