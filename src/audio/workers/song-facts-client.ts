import type { SongFacts } from '../model/song-facts';
import type { SongFactsApi } from './song-facts-protocol';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () =>
  new Worker(new URL('./song-facts-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the song-facts worker. The channels are copied (the page keeps playing them). */
export class SongFactsClient {
  #rpc: RespawningRpcClient<SongFactsApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<SongFactsApi>(factory);
  }

  analyze(
    channels: Float32Array[],
    sampleRate: number,
    options: { signal?: AbortSignal; onProgress?: (f: number) => void } = {},
  ): Promise<{ facts: SongFacts; relativeOf?: SongFacts['key'] }> {
    return this.#rpc.call('analyze', { channels, sampleRate }, options);
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
