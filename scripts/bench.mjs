// `npm run bench`: every benchmark, one after another, each printing its own table with its reference
// measured in the same run. `npm run bench -- mix encode` runs only the benchmarks whose name matches.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { ensureDebianPackages } from './debian-packages.mjs';

const BENCHES = [
  { name: 'audio-master', file: 'bench/audio-master.bench.ts' },
  { name: 'audio-meter', file: 'bench/audio-meter.bench.ts' },
  { name: 'audio-mix', file: 'bench/audio-mix.ts' },
  // Issue 26: the adaptive vocal chain's stages against afftdn, deesser, dynaudnorm and a whole ffmpeg graph.
  { name: 'audio-mix-vocal-chain', file: 'bench/audio-vocal-chain.ts' },
  { name: 'audio-encode', file: 'bench/audio-encode.ts' },
  { name: 'audio-pitch', file: 'bench/audio-pitch.ts' },
  { name: 'song-facts', file: 'bench/song-facts.bench.ts' },
  // Issue 31: the album's continuous record (gap, crossfade, gapless) against ffmpeg's apad/concat/acrossfade.
  { name: 'album-sequence', file: 'bench/album-sequence.bench.ts' },
  { name: 'upload', file: 'bench/upload-memory.bench.ts' },
  // Times the built app: `npm run build:app` runs first, so the figure is of the code checked out.
  { name: 'mastering-screen', file: 'bench/mastering-screen.bench.ts', needsBuild: true },
  { name: 'load', file: 'bench/load.ts' },
  { name: 'upload-concurrent', file: 'bench/upload-concurrent.ts' },
  // Ten minutes long: runs only when asked for by name (`npm run bench -- soak`).
  { name: 'soak', file: 'bench/soak.ts', optIn: true },
];

const filters = process.argv.slice(2);
const selected = BENCHES.filter((b) =>
  filters.length === 0 ? !b.optIn : filters.some((f) => b.name.includes(f)),
);
let failed = 0;
// The references and the browser the benchmarks run: Chromium, ffmpeg, lame, and wrk for `load`.
ensureDebianPackages({
  '/usr/bin/chromium': 'chromium',
  '/usr/bin/ffmpeg': 'ffmpeg',
  '/usr/bin/lame': 'lame',
  '/usr/bin/wrk': 'wrk',
  // Round 3: the mixer's, pitch and song-facts benchmarks render their material from MIDI and speech.
  '/usr/bin/fluidsynth': 'fluidsynth',
  '/usr/share/sounds/sf2/FluidR3_GM.sf2': 'fluid-soundfont-gm',
  '/usr/bin/espeak-ng': 'espeak-ng',
  '/usr/bin/sox': 'sox',
});
if (selected.some((b) => b.needsBuild)) {
  console.log('\n=== building the app for the benchmarks that start it (npm run build:app) ===');
  const built = spawnSync('npm', ['run', 'build:app'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
for (const bench of selected) {
  if (!fs.existsSync(bench.file)) {
    console.log(`\n--- ${bench.name}: not present (${bench.file}) ---`);
    continue;
  }
  console.log(`\n=== ${bench.name} (${bench.file}) ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', bench.file], { stdio: 'inherit' });
  if (res.status !== 0) {
    failed++;
    console.error(`${bench.name} failed (exit ${res.status ?? res.signal})`);
  }
}
process.exit(failed ? 1 : 0);
