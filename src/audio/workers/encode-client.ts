import type { Mp3Bitrate } from '../codecs/mp3-encoder';
import type { EncodeApi } from './encode-protocol';
import { RespawningRpcClient } from './worker-rpc';

export interface EncodeJobOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /**
   * Move the channel buffers to the worker instead of copying them (the arrays are unusable afterwards).
   * Saves a main-thread copy of the whole track; never pass an AudioBuffer's own channel data.
   */
  transfer?: boolean;
}

const defaultFactory = () => new Worker(new URL('./encode-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the encoder worker: one lazily started worker, restarted after a crash. */
export class EncoderClient {
  #rpc: RespawningRpcClient<EncodeApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<EncodeApi>(factory);
  }

  async wav(
    channels: Float32Array[],
    sampleRate: number,
    options: EncodeJobOptions & { dither?: boolean } = {},
  ): Promise<Blob> {
    const file = await this.#rpc.call(
      'wav',
      { channels, sampleRate, dither: options.dither },
      { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
    );
    return file.blob;
  }

  async mp3(
    channels: Float32Array[],
    sampleRate: number,
    options: EncodeJobOptions & { bitrate?: Mp3Bitrate; wasmUrl?: string } = {},
  ): Promise<Blob> {
    const file = await this.#rpc.call(
      'mp3',
      { channels, sampleRate, bitrate: options.bitrate, wasmUrl: options.wasmUrl },
      { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
    );
    return file.blob;
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}

const transferList = (channels: Float32Array[], options: EncodeJobOptions): Transferable[] => {
  if (!options.transfer) return [];
  return [...new Set(channels.map((c) => c.buffer))].filter(
    (b): b is ArrayBuffer => b instanceof ArrayBuffer,
  );
};
