/**
 * A tab opened before a deploy still runs the old build: when it lazy-loads a screen, the old chunk's file is
 * gone (hashed names change with every build). Reloading the same URL fetches the new index.html and its new
 * chunks. We reload once per URL: if the chunk is still missing after that (a broken deploy, no network), the
 * friendly error page shows instead of a reload loop. The mark lives in sessionStorage (per tab, survives the
 * reload) and is cleared as soon as any chunk loads, so a later deploy gets its own reload.
 */
const KEY = 'chunkReloadedAt';

/** Browsers word a failed `import()` differently; Vite's preload helper adds its own for CSS. */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message));

interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  url: string;
  reload: () => void;
}

const browserDeps = (): ReloadDeps => ({
  storage: window.sessionStorage,
  url: window.location.href,
  reload: () => window.location.reload(),
});

/** Reloads the page if this URL has not been reloaded for a missing chunk yet; returns whether it did. */
export function reloadOnceForChunkError(deps: ReloadDeps = browserDeps()): boolean {
  try {
    if (deps.storage.getItem(KEY) === deps.url) return false;
    deps.storage.setItem(KEY, deps.url);
  } catch {
    return false; // storage refused: no guard against a loop, so no automatic reload
  }
  deps.reload();
  return true;
}

/** A chunk arrived: the build in this tab matches the server again. */
export function chunkLoaded(storage: Pick<Storage, 'removeItem'> | undefined = globalThis.sessionStorage) {
  try {
    storage?.removeItem(KEY);
  } catch {
    // storage refused: nothing was stored either
  }
}
