import type { LibraryKind, LibraryList, MasterMeta } from '../../../shared/api/library';
import { apiJson, requestHeaders, throwIfNotOk } from '../../lib/api-client';
import { withRetries } from '../../lib/retry';
import { AUTH_TOKEN_KEY, readStorage } from '../../lib/storage';
import { xhrUpload } from '../../lib/xhr-upload';

/** The library's calls (issue 30): the list, rename, delete, and keeping a paid master's files. */
export const LIBRARY_QUERY_KEY = ['library'] as const;

export const fetchLibrary = (q: string) =>
  apiJson<LibraryList>('GET', `/api/library${q.trim() ? `?q=${encodeURIComponent(q.trim())}` : ''}`);

export const renameItem = (kind: LibraryKind, id: number, name: string) =>
  apiJson<void>('PUT', `/api/library/${kind}/${id}`, { name });

export const deleteItem = (kind: LibraryKind, id: number) =>
  apiJson<void>('DELETE', `/api/library/${kind}/${id}`);

/**
 * Keeps the files just handed to the browser with the spend that paid for them (decision 226): the server
 * finds the spend by its key and keeps only the formats it paid for, for 30 days.
 */
export const keepMaster = (spendKey: string, meta: MasterMeta, files: { blob: Blob; name: string }[]) => {
  const form = new FormData();
  form.append('spendKey', spendKey);
  form.append('meta', JSON.stringify(meta));
  for (const f of files) form.append('file', f.blob, f.name);
  // The server keeps one copy per spend key however often it is sent, so a dropped connection or a
  // server error is tried again (after 2 s, then 10 s) before the user is told the files were not kept.
  return withRetries(
    () => xhrUpload('/api/masters', form, { headers: requestHeaders(false, readStorage(AUTH_TOKEN_KEY)) }),
    KEEP_RETRY_DELAYS_MS,
  );
};

export const KEEP_RETRY_DELAYS_MS = [2000, 10_000] as const;

/** A kept file's bytes (our own origin, the user's session): reading them never spends anything. */
export const fetchKeptFile = async (url: string): Promise<Blob> => {
  const res = await fetch(url, {
    credentials: 'include',
    headers: requestHeaders(false, readStorage(AUTH_TOKEN_KEY)),
  });
  await throwIfNotOk(res);
  return res.blob();
};
