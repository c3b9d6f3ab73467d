import { join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { type ServedHarness, serveHarness } from '../audio-harness-shared/harness-serve';

/**
 * Serves a page with the mastering engine (chain worker, meter worker, AudioWorklet) bundled here with
 * esbuild, so browser tests and benchmarks run the real modules in real Chromium without building the app.
 */
const here = resolve(import.meta.dirname);
const root = resolve(here, '..', '..');

const ENTRIES = {
  harness: join(here, 'harness-entry.ts'),
  'master-worker': join(root, 'src/audio/workers/master-worker.ts'),
  'meter-worker': join(root, 'src/audio/workers/meter-worker.ts'),
  'mastering-worklet': join(root, 'src/audio/graph/mastering.worklet.ts'),
};

/** Vite's `?worker&url` import of the worklet: here its separately built bundle's URL. */
const workletUrl: Plugin = {
  name: 'worker-url',
  setup(b) {
    b.onResolve({ filter: /\?worker&url$/ }, (args) => ({ path: args.path, namespace: 'worker-url' }));
    b.onLoad({ filter: /.*/, namespace: 'worker-url' }, (args) => {
      if (!args.path.includes('mastering.worklet')) throw new Error(`unknown worker url ${args.path}`);
      return { contents: 'export default "/mastering-worklet.js";', loader: 'js' };
    });
  },
};

export type MasteringHarness = ServedHarness;

export const startMasteringHarness = (): Promise<MasteringHarness> =>
  serveHarness({ name: 'mastering harness', entryPoints: ENTRIES, plugins: [workletUrl] });
