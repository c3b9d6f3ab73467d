/**
 * Writes a ZIP with fflate's streaming Zip (decision 152): each file is read from its Blob in chunks and
 * stored (ZipPassThrough: encoded audio does not deflate worth the time), so memory holds the archive's
 * output chunks and one input chunk at a time. Progress follows the bytes read; a cancel stops between
 * chunks and drops the archive.
 */
import { Zip, ZipPassThrough } from 'fflate';
import type { RpcHandlers } from './worker-rpc';
import type { ZipApi } from './zip-protocol';

export const createZipHandlers = (): RpcHandlers<ZipApi> => ({
  zip: async ({ entries }, { signal, progress }) => {
    const total = entries.reduce((n, e) => n + e.blob.size, 0);
    const parts: Uint8Array[] = [];
    let failure: Error | null = null;
    let finished = false;
    const zip = new Zip((error, chunk, final) => {
      if (error) failure = error;
      else parts.push(chunk);
      if (final) finished = true;
    });
    let done = 0;
    try {
      for (const entry of entries) {
        const file = new ZipPassThrough(entry.name);
        // Timestamps in the archive are the download's moment (DOS time has 2 s steps).
        file.mtime = Date.now();
        zip.add(file);
        const reader = entry.blob.stream().getReader();
        for (;;) {
          signal.throwIfAborted();
          const { value, done: last } = await reader.read();
          if (last) break;
          file.push(value);
          done += value.length;
          progress(total > 0 ? done / total : 1);
          if (failure) throw failure;
        }
        file.push(new Uint8Array(0), true);
      }
      zip.end();
      if (failure) throw failure;
      if (!finished) throw new Error('The ZIP archive was not completed');
      return new Blob(parts as BlobPart[], { type: 'application/zip' });
    } catch (error) {
      zip.terminate();
      throw error;
    }
  },
});
