import { RespawningRpcClient } from '../../audio/workers/worker-rpc';
import type { ObjectUrlApi } from './object-url-protocol';

/** Files from this size get their object URL in the worker; a smaller one's registration costs the page little. */
const WORKER_URL_BYTES = 16 * 1024 * 1024;
/** The browser has taken its own reference once the download starts; the URL can go a little later. */
const REVOKE_AFTER_MS = 60_000;

let urls: RespawningRpcClient<ObjectUrlApi> | null = null;
const urlWorker = () =>
  (urls ??= new RespawningRpcClient<ObjectUrlApi>(
    () => new Worker(new URL('./object-url-worker.ts', import.meta.url), { type: 'module' }),
  ));

/** An object URL for `blob` and how to revoke it: a large file's is made in the worker (decision 320). */
const objectUrl = async (blob: Blob): Promise<{ url: string; revoke: () => void }> => {
  if (blob.size >= WORKER_URL_BYTES && typeof Worker !== 'undefined') {
    const worker = urlWorker();
    const made = await worker.call('create', { blob }).catch(() => null);
    if (made)
      return { url: made.url, revoke: () => void worker.call('revoke', { url: made.url }).catch(() => {}) };
  }
  const url = URL.createObjectURL(blob);
  return { url, revoke: () => URL.revokeObjectURL(url) };
};

/**
 * Hands a file to the browser as a download, through a temporary object URL and a clicked link. Resolves
 * once the link is clicked.
 */
export const saveFile = async (blob: Blob, name: string): Promise<void> => {
  const { url, revoke } = await objectUrl(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(revoke, REVOKE_AFTER_MS);
};
