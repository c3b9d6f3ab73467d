/**
 * Pitch correction benchmark (issue 27): correcting a 4-minute sung vocal (a fluidsynth "Voice Oohs" melody,
 * each note 20-40 cents off) with our tracker + correction curve + PSOLA, against ffmpeg's rubberband filter
 * doing a constant shift of the same file (`-af rubberband=pitch=...`, one filter thread), paired rounds in
 * one run. Ours runs in Node's V8 (the same code as the browser's mix worker), each round on a fresh copy so
 * nothing is cached. Target (issue 27): ours at most 1.0x rubberband.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { floatWav } from '../src/audio/dsp/node-tools.test-helper';
import { correctPitch } from '../src/audio/dsp/pitch/correct-pitch';
import {
  A_MINOR_MELODY,
  melodyMidi,
  renderMidi,
  tempDir,
  VOICE_OOHS,
} from '../src/audio/dsp/pitch/sung-melody.test-helper';
import { fmtMs, fmtRatio, pairedRounds, printEnvironment, verdict } from './paired-rounds';

const SR = 44_100;
const SECONDS = 240;
const dir = tempDir();
try {
  // One melody loop is 8.7 s: repeat it (each loop with its own notes' detuning) to four minutes.
  const loop = A_MINOR_MELODY.at(-1)!.start + 0.9;
  const notes = Array.from({ length: Math.ceil(SECONDS / loop) }, (_, k) =>
    A_MINOR_MELODY.map((n) => ({ ...n, start: n.start + k * loop })),
  ).flat();
  const rendered = renderMidi(dir, 'vocal', melodyMidi(notes, VOICE_OOHS, 25));
  const vocal = rendered.subarray(0, SECONDS * SR);
  const wav = join(dir, 'vocal-4min.wav');
  writeFileSync(wav, floatWav([vocal], SR));
  const settings = {
    amount: 100,
    retuneMs: 40,
    humanize: 50,
    key: { tonic: 9, mode: 'minor' as const },
    followSongKey: false,
  };

  printEnvironment(undefined);
  const result = await pairedRounds(
    async () => {
      const copy = Float32Array.from(vocal);
      const t0 = performance.now();
      await correctPitch([copy], SR, settings);
      return performance.now() - t0;
    },
    () => {
      const t0 = performance.now();
      execFileSync('ffmpeg', [
        '-v',
        'error',
        '-filter_threads',
        '1',
        '-i',
        wav,
        '-af',
        'rubberband=pitch=1.0145',
        '-f',
        'null',
        '-',
      ]);
      return performance.now() - t0;
    },
  );
  console.log('\nPitch correction of a 4 min vocal (Node, same code as the mix worker)');
  console.log('| job | ours ms (min / median / max) | ffmpeg rubberband ms | ratio | verdict |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| track + correct + PSOLA vs rubberband=pitch | ${fmtMs(result.ours)} | ${fmtMs(result.reference)} | ${fmtRatio(result.ratio)} | ${verdict(result, 1)} |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
