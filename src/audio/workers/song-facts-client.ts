import type { SongFacts } from '../model/song-facts';
import type { PauseGate } from './pause-gate';
import type { SongFactsApi } from './song-facts-protocol';
import { buffersOf, RespawningRpcClient } from './worker-rpc';

const defaultFactory = () =>
  new Worker(new URL('./song-facts-worker.ts', import.meta.url), { type: 'module' });

/**
 * The page's side of the song-facts worker. The channels move to the worker (transferred, not cloned: a
 * structured clone of a 10-minute beat is one long task on the page), so the caller passes copies of its own
 * (the page keeps playing the AudioBuffer's data) and does not use them again.
 */
export class SongFactsClient {
  #rpc: RespawningRpcClient<SongFactsApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<SongFactsApi>(factory);
  }

  analyze(
    channels: Float32Array[],
    sampleRate: number,
    options: { signal?: AbortSignal; onProgress?: (f: number) => void; gate?: PauseGate } = {},
  ): Promise<{ facts: SongFacts; relativeOf?: SongFacts['key'] }> {
    return this.#rpc.call('analyze', { channels, sampleRate }, { ...options, transfer: buffersOf(channels) });
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
