/**
 * Loudness meter benchmark (`npm run bench -- audio-meter`, or `node --import tsx bench/audio-meter.bench.ts`).
 * Full measurement (integrated, loudness range, true peak) of generated 4- and 10-minute stereo 44.1 kHz
 * tracks in the meter Worker in headless Chromium (fresh worker, cold JIT) against
 * `ffmpeg -af ebur128=peak=true -f null -` in paired rounds of alternating order (bench/paired-rounds.ts): target ours <= 0.5x, values within 0.2 LU.
 */
import {
  ffmpegAvailable,
  LENGTHS,
  ms,
  openHarness,
  printTable,
  timeFfmpeg,
  writeTracks,
} from './audio-bench-common';
import { fmtMs, fmtRatio, label, pairedRounds, printEnvironment, verdict } from './paired-rounds';

const parse = (stderr: string) => {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const value = (re: RegExp) => Number(summary.match(re)?.[1]);
  return {
    integrated: value(/I:\s+(-?[\d.]+) LUFS/),
    range: value(/LRA:\s+(-?[\d.]+) LU/),
    truePeak: value(/Peak:\s+(-?[\d.]+) dBFS/),
  };
};

const main = async () => {
  console.log('Loudness meter (I, LRA, true peak).');
  if (!ffmpegAvailable()) {
    console.log('ffmpeg is not installed: no reference to compare with; skipping.');
    return;
  }
  const tracks = writeTracks(LENGTHS);
  const bench = await openHarness();
  printEnvironment(bench.page.context().browser()?.version());
  const rows: (string | number)[][] = [];
  try {
    for (const seconds of LENGTHS) {
      await bench.page.evaluate((s) => window.audioHarness.prepare(s), seconds);
      const stalls: number[] = [];
      const tasks: number[] = [];
      const idle: number[] = [];
      let values = { integrated: 0, range: 0, truePeak: 0 };
      let reference = values;
      const pair = await pairedRounds(
        async () => {
          const r = await bench.page.evaluate((s) => window.audioHarness.meterBench(s), seconds);
          stalls.push(r.longestMs);
          tasks.push(r.longTaskMs);
          idle.push(await bench.page.evaluate((t) => window.audioHarness.idleStall(t), r.ms));
          values = r;
          return r.ms;
        },
        () => {
          const f = timeFfmpeg(['-i', tracks.wav(seconds), '-af', 'ebur128=peak=true', '-f', 'null', '-']);
          reference = parse(f.stderr);
          return f.ms;
        },
      );
      rows.push([
        label(seconds),
        fmtMs(pair.ours),
        fmtMs(pair.reference),
        fmtRatio(pair.ratio),
        verdict(pair, 0.5),
        `${values.integrated.toFixed(2)} / ${reference.integrated.toFixed(1)}`,
        `${values.range.toFixed(2)} / ${reference.range.toFixed(1)}`,
        `${values.truePeak.toFixed(2)} / ${reference.truePeak.toFixed(1)}`,
        Math.abs(values.integrated - reference.integrated).toFixed(2),
        `${ms(Math.max(...tasks))} / ${ms(Math.max(...stalls))}`,
        ms(Math.max(...idle)),
      ]);
    }
  } finally {
    await bench.close();
    tracks.cleanup();
  }
  printTable(
    [
      'track',
      'ours (worker) ms',
      'ffmpeg ebur128=peak=true ms',
      'ours/ffmpeg per round',
      'verdict (median, target <= 0.5x)',
      'I LUFS ours / ffmpeg',
      'LRA LU ours / ffmpeg',
      'TP dBTP ours / ffmpeg',
      '|dI| LU (target <= 0.2)',
      'main thread: longest task / heartbeat gap (< 50 ms)',
      'idle page stall (noise floor)',
    ],
    rows,
  );
  console.log('ffmpeg prints one decimal; the differences include its rounding.');
};

await main();
