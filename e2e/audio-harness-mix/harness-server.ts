import { createRequire } from 'node:module';
import { basename, join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { type ServedHarness, serveHarness } from '../audio-harness-shared/harness-serve';
import { workletUrls } from '../audio-harness-shared/worklet-urls';

/**
 * Serves a page that bundles the audio engine's mix, codec and peaks code and its workers (built here with
 * esbuild), so browser tests and benchmarks exercise the real modules in real Chromium without the app.
 */
const here = resolve(import.meta.dirname);
const root = resolve(here, '..', '..');
const require = createRequire(join(root, 'package.json'));

const WORKERS = {
  'encode-worker': join(root, 'src/audio/workers/encode-worker.ts'),
  'peaks-worker': join(root, 'src/audio/workers/peaks-worker.ts'),
  'mix-worker': join(root, 'src/audio/workers/mix-worker.ts'),
  'pitch-worklet': join(root, 'src/audio/graph/pitch.worklet.ts'),
};
export type HarnessWorker = keyof typeof WORKERS;

/** Vite's `?url` imports: the file is served under /assets and the import is its URL. */
const assetUrls = (assets: Map<string, string>): Plugin => ({
  name: 'asset-url',
  setup(b) {
    b.onResolve({ filter: /\?url$/ }, (args) => {
      const file = require.resolve(args.path.replace(/\?url$/, ''), { paths: [args.resolveDir] });
      return { path: file, namespace: 'asset-url' };
    });
    b.onLoad({ filter: /.*/, namespace: 'asset-url' }, (args) => {
      const name = basename(args.path);
      assets.set(name, args.path);
      return { contents: `export default ${JSON.stringify(`/assets/${name}`)};`, loader: 'js' };
    });
  },
});

export type MixHarness = ServedHarness;

/** Builds the page and the named workers (all by default) and serves them on 127.0.0.1. */
export const startMixHarness = (
  workers: readonly HarnessWorker[] = Object.keys(WORKERS) as HarnessWorker[],
): Promise<MixHarness> => {
  const assets = new Map<string, string>();
  return serveHarness({
    name: 'mix harness',
    entryPoints: {
      harness: join(here, 'harness-entry.ts'),
      ...Object.fromEntries(workers.map((w) => [w, WORKERS[w]])),
    },
    plugins: [assetUrls(assets), workletUrls],
    fileFor: (path) => (path.startsWith('/assets/') ? assets.get(path.slice('/assets/'.length)) : undefined),
  });
};
