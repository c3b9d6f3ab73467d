import fs from 'node:fs';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The import direction of DESIGN.md: shared imports nothing of ours, audio only shared, server only
 * shared. Bundling each entry point shows everything it really pulls in, however indirectly.
 */
async function graph(entry: string | string[], platform: 'node' | 'browser') {
  const result = await build({
    entryPoints: Array.isArray(entry) ? entry : [entry],
    outdir: 'unused',
    bundle: true,
    write: false,
    metafile: true,
    platform,
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    loader: { '.wasm': 'empty' },
  });
  const meta = result.metafile as Metafile;
  const files = Object.keys(meta.inputs);
  const packages = new Set(
    Object.values(meta.inputs).flatMap((i) => i.imports.filter((imp) => imp.external).map((imp) => imp.path)),
  );
  return { files, packages: [...packages] };
}

const isReact = (p: string) => /^(react|react-dom|react-router|@tanstack\/react-query|@radix-ui\/)/.test(p);

describe('module boundaries', () => {
  it('the server pulls in neither React nor src/web nor src/audio', async () => {
    const { files, packages } = await graph('src/server/main.ts', 'node');
    expect(files.some((f) => f.includes('src/server/app.ts'))).toBe(true);
    expect(files.filter((f) => f.startsWith('src/web/') || f.startsWith('src/audio/'))).toEqual([]);
    expect(packages.filter(isReact)).toEqual([]);
  });

  it('the audio engine pulls in neither React nor src/web nor the server', async () => {
    // Every module of the engine, workers and worklets included (they are loaded by URL, not imported).
    const all = fs
      .readdirSync('src/audio', { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))
      .map((f) => `src/audio/${f}`);
    expect(all.length).toBeGreaterThan(5);
    const { files, packages } = await graph(all, 'browser');
    expect(files.filter((f) => f.startsWith('src/web/') || f.startsWith('src/server/'))).toEqual([]);
    expect(packages.filter(isReact)).toEqual([]);
  });

  it('shared code imports nothing of ours outside src/shared', async () => {
    const { files } = await graph('src/shared/api/index.ts', 'browser');
    expect(files.filter((f) => !f.startsWith('src/shared/'))).toEqual([]);
  });
});
