import type { Genre } from '../../shared/genres';
import type { GenreSuggestion } from '../dsp/genre-suggest';
import type { VocalAnalysis } from '../dsp/vocal/analyse-vocal';
import type { ListenApi } from './listen-protocol';
import type { PauseGate } from './pause-gate';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./listen-worker.ts', import.meta.url), { type: 'module' });

interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** The page's pause gate for background jobs (pause-gate.ts). */
  gate?: PauseGate;
}

const transferOf = (channels: Float32Array[]): ArrayBuffer[] =>
  [...new Set(channels.map((c) => c.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);

/** The page's side of the listening worker. The channels are transferred: pass copies. */
export class ListenClient {
  #rpc: RespawningRpcClient<ListenApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<ListenApi>(factory);
  }

  beat(
    channels: Float32Array[],
    sampleRate: number,
    tempoBpm: number | null,
    options: CallOptions = {},
  ): Promise<GenreSuggestion> {
    return this.#rpc.call(
      'beat',
      { channels, sampleRate, tempoBpm },
      { ...options, transfer: transferOf(channels) },
    );
  }

  vocal(
    channels: Float32Array[],
    sampleRate: number,
    genre: Genre,
    options: CallOptions = {},
  ): Promise<VocalAnalysis> {
    return this.#rpc.call(
      'vocal',
      { channels, sampleRate, genre },
      { ...options, transfer: transferOf(channels) },
    );
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
