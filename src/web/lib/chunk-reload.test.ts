import { describe, expect, it } from 'vitest';
import { chunkLoaded, isChunkLoadError, reloadOnceForChunkError } from './chunk-reload';

const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
};

describe('chunk reload', () => {
  it('recognises the failed dynamic import of Chromium, Firefox and Safari, and nothing else', () => {
    const chunk = [
      new TypeError('Failed to fetch dynamically imported module: http://x/assets/pricing-page-abc.js'),
      new TypeError('error loading dynamically imported module: http://x/assets/a.js'),
      new TypeError('Importing a module script failed.'),
      new Error('Unable to preload CSS for /assets/a.css'),
    ];
    for (const e of chunk) expect(isChunkLoadError(e), e.message).toBe(true);
    for (const e of [new Error('Cannot read properties of undefined'), 'Failed to fetch dynamically', null])
      expect(isChunkLoadError(e)).toBe(false);
  });

  it('reloads once per URL, then not again until a chunk has loaded', () => {
    const storage = memoryStorage();
    let reloads = 0;
    const deps = { storage, url: 'http://x/pricing', reload: () => reloads++ };
    expect(reloadOnceForChunkError(deps)).toBe(true);
    expect(reloadOnceForChunkError(deps)).toBe(false);
    expect(reloads).toBe(1);
    expect(reloadOnceForChunkError({ ...deps, url: 'http://x/help' })).toBe(true);
    chunkLoaded(storage);
    expect(reloadOnceForChunkError({ ...deps, url: 'http://x/help' })).toBe(true);
    expect(reloads).toBe(3);
  });

  it('does not reload when storage refuses, since nothing could stop a loop', () => {
    let reloads = 0;
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(reloadOnceForChunkError({ storage, url: 'http://x/', reload: () => reloads++ })).toBe(false);
    expect(reloads).toBe(0);
  });
});
