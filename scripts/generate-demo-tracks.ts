/**
 * Writes the demo tracks of the mastering screen (public/demo/*.mp3) from the generated music of
 * src/audio/synth-music.ts (also the test audio of the mastering specs and benchmarks).
 *
 *   node --import tsx scripts/generate-demo-tracks.ts      # writes public/demo/*.mp3 (needs /usr/bin/lame)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWav } from '../src/audio/codecs/wav-encoder';
import { type DemoStyle, synthTrack } from '../src/audio/synth-music';

export { type DemoStyle, synthTrack };

/** 16-bit PCM WAV bytes by the app's own encoder, without dither: these are test inputs, not exports. */
export const wavBytes = (channels: Float32Array[], sampleRate: number): Buffer =>
  Buffer.concat(encodeWav(channels, sampleRate, { dither: false, maxBytes: Number.POSITIVE_INFINITY }));

const DEMOS: { file: string; style: DemoStyle; seconds: number }[] = [
  { file: 'acoustic-sketch.mp3', style: 'acoustic', seconds: 14 },
  { file: 'pop-groove.mp3', style: 'pop', seconds: 14 },
  { file: 'club-loop.mp3', style: 'club', seconds: 14 },
];

const main = () => {
  const out = resolve('public/demo');
  mkdirSync(out, { recursive: true });
  const tmp = join(tmpdir(), `demo-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  for (const demo of DEMOS) {
    const wav = join(tmp, demo.file.replace('.mp3', '.wav'));
    writeFileSync(wav, wavBytes(synthTrack(demo.style, demo.seconds), 44_100));
    execFileSync('/usr/bin/lame', ['--quiet', '-b', '128', '--cbr', wav, join(out, demo.file)]);
    console.log(`public/demo/${demo.file}`);
  }
  rmSync(tmp, { recursive: true, force: true });
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
