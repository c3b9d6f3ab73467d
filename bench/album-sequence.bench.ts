/**
 * Album sequencing (issue 31, `npm run bench -- album`): the continuous record of four mastered 4-minute
 * stereo tracks (a 2 s gap, a 3 s equal-power crossfade, a gapless join), made by the code the album page runs
 * (`sequenceAlbum`, one thread) against ffmpeg doing the same joins in one graph (`apad` + `concat` for the
 * gap, `acrossfade` with quarter-sine curves, `concat` for the gapless join), paired round by round.
 * ffmpeg reads its four inputs as raw 32-bit float (a parse, no decoding); ours gets the samples in memory,
 * as the page has them after mastering. The record's length is checked to be the same on both sides.
 * The mastering of each track is `audio-master`'s benchmark; this row is the sequencing the album adds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sequenceAlbum } from '../src/audio/album/album-sequence';
import { musicLike } from '../src/audio/dsp/test-signals';
import { ffmpegAvailable, printTable, RATE, timeFfmpeg } from './audio-bench-common';
import { fmtMs, fmtRatio, pairedRounds, printEnvironment, verdict } from './paired-rounds';

const SECONDS = process.env.BENCH_QUICK ? 30 : 240;
const GAP_SECONDS = 2;
const CROSSFADE_SECONDS = 3;
/** Ours should cost no more than ffmpeg's graph for the same joins. */
const TARGET = 1.0;

const tracks = [1, 2, 3, 4].map((seed) => musicLike({ seconds: SECONDS, sampleRate: RATE, seed }));
const options = {
  cueAligned: false,
  transitions: [{ gapSeconds: GAP_SECONDS }, { crossfadeSeconds: CROSSFADE_SECONDS }, { gapSeconds: 0 }],
};

/** One track as interleaved 32-bit float samples, ffmpeg's `f32le`. */
const interleaved = (channels: Float32Array[]): Buffer => {
  const n = channels[0]!.length;
  const out = new Float32Array(n * channels.length);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < channels.length; c++) out[i * channels.length + c] = channels[c]![i]!;
  return Buffer.from(out.buffer);
};

const GRAPH = [
  `[0:a]apad=pad_dur=${GAP_SECONDS}[g0]`,
  '[g0][1:a]concat=n=2:v=0:a=1[j1]',
  `[j1][2:a]acrossfade=d=${CROSSFADE_SECONDS}:c1=qsin:c2=qsin[j2]`,
  '[j2][3:a]concat=n=2:v=0:a=1,astats=measure_perchannel=none:measure_overall=Number_of_samples[out]',
].join(';');

if (!ffmpegAvailable()) {
  console.log('ffmpeg is not installed: the album sequencing benchmark needs it as its reference.');
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'album-bench-'));
try {
  const inputs = tracks.map((t, i) => {
    const file = join(dir, `track-${i + 1}.f32`);
    writeFileSync(file, interleaved(t));
    return ['-f', 'f32le', '-ar', String(RATE), '-ac', '2', '-i', file];
  });
  let oursFrames = 0;
  let ffmpegFrames = 0;
  const ours = () => {
    const t0 = performance.now();
    oursFrames = sequenceAlbum(tracks, RATE, options).frames;
    return performance.now() - t0;
  };
  const reference = () => {
    const run = timeFfmpeg([...inputs.flat(), '-filter_complex', GRAPH, '-map', '[out]', '-f', 'null', '-']);
    ffmpegFrames = Number(/Number of samples:\s*(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN);
    return run.ms;
  };
  ours(); // warm-up: the JIT, as the page that has sequenced a preview already
  const pair = await pairedRounds(ours, reference);
  printEnvironment(undefined);
  console.log(
    `Four ${SECONDS} s stereo tracks at ${RATE} Hz: a ${GAP_SECONDS} s gap, a ${CROSSFADE_SECONDS} s crossfade, a gapless join. ` +
      `Record length: ours ${oursFrames} samples, ffmpeg ${ffmpegFrames}.`,
  );
  printTable(
    [
      'record',
      'ours (sequenceAlbum) ms',
      'ffmpeg apad+concat+acrossfade ms',
      'ours/ffmpeg per round',
      'verdict',
    ],
    [
      [
        `4 x ${SECONDS} s`,
        fmtMs(pair.ours),
        fmtMs(pair.reference),
        fmtRatio(pair.ratio),
        verdict(pair, TARGET),
      ],
    ],
  );
  if (oursFrames !== ffmpegFrames) {
    console.error(
      `The records differ in length (ours ${oursFrames}, ffmpeg ${ffmpegFrames}): not the same job.`,
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
