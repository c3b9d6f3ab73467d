import { RespawningRpcClient } from './worker-rpc';
import type { ZipApi, ZipEntry } from './zip-protocol';

const defaultFactory = () => new Worker(new URL('./zip-worker.ts', import.meta.url), { type: 'module' });

/** The page's side of the ZIP worker. */
export class ZipClient {
  #rpc: RespawningRpcClient<ZipApi>;

  constructor(factory: () => Worker = defaultFactory) {
    this.#rpc = new RespawningRpcClient<ZipApi>(factory);
  }

  /** One archive of the entries, stored in order; progress 0..1 by bytes; cancellable. */
  zip(
    entries: ZipEntry[],
    options: { signal?: AbortSignal; onProgress?: (f: number) => void } = {},
  ): Promise<Blob> {
    return this.#rpc.call('zip', { entries }, options);
  }

  dispose(): void {
    this.#rpc.dispose();
  }
}
