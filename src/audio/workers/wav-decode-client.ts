import type { WavDecodeApi, WavDecodeResult } from './wav-decode-protocol';
import { RespawningRpcClient } from './worker-rpc';

const defaultFactory = () =>
  new Worker(new URL('./wav-decode-worker.ts', import.meta.url), { type: 'module' });

/**
 * The page's side of the WAV decode worker. `bytes` is moved (detached here); a refused file's bytes come
 * back in the result. If the worker itself fails the bytes are lost and the call rejects.
 */
export class WavDecodeClient {
  #rpc: RespawningRpcClient<WavDecodeApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<WavDecodeApi>(factory);
  }

  decode(bytes: ArrayBuffer): Promise<WavDecodeResult> {
    return this.#rpc.call('decode', { bytes }, { transfer: [bytes] });
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
