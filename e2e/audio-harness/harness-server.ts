import { join, resolve } from 'node:path';
import { type ServedHarness, serveHarness } from '../audio-harness-shared/harness-serve';
import { workletUrls } from '../audio-harness-shared/worklet-urls';

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
  'pitch-worklet': join(root, 'src/audio/graph/pitch.worklet.ts'),
};

export type MasteringHarness = ServedHarness;

export const startMasteringHarness = (): Promise<MasteringHarness> =>
  serveHarness({ name: 'mastering harness', entryPoints: ENTRIES, plugins: [workletUrls] });
