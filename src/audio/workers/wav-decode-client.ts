import type { WavDecodeApi, WavDecodeResult } from './wav-decode-protocol';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () =>
  new Worker(new URL('./wav-decode-worker.ts', import.meta.url), { type: 'module' });

/**
 * The page's side of the WAV decode worker: the file goes as a Blob (the worker reads it), `onRead` hears
 * when its bytes are in; a refused file's bytes come back in the result. If the worker itself fails the
 * call rejects (the page still holds the file).
 */
export class WavDecodeClient {
  #rpc: RespawningRpcClient<WavDecodeApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<WavDecodeApi>(factory);
  }

  decode(file: Blob, options: { signal?: AbortSignal; onRead?: () => void } = {}): Promise<WavDecodeResult> {
    return this.#rpc.call(
      'decode',
      { file },
      { signal: options.signal, onProgress: () => options.onRead?.() },
    );
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
