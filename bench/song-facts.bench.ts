/**
 * Song facts (issue 27): the analysis of a 4-minute beat (tempo, grid, key; the same code the worker runs, on
 * one thread) against `aubio tempo` on the same file, paired round by round. aubio reads and decodes the
 * WAV itself; ours gets the decoded samples, as the worker does. Target: under 1 s for 4 minutes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeSongFacts } from '../src/audio/dsp/song-facts/analyze';
import { renderBeat } from '../src/audio/dsp/song-facts/beat-render.test-helper';
import { BEAT_SET } from '../src/audio/dsp/song-facts/beat-set';
import { printTable } from './audio-bench-common';
import { fmtMs, fmtRatio, pairedRounds, printEnvironment, verdict } from './paired-rounds';

const SPEC = BEAT_SET.find((b) => b.name === 'pop-A-minor-100')!;
const SECONDS = 240;
const dir = mkdtempSync(join(tmpdir(), 'song-facts-bench-'));
try {
  const wav = await renderBeat({ ...SPEC, bars: Math.ceil((SECONDS * SPEC.bpm) / 240) });
  const raw = join(dir, 'beat.f32');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-i',
    wav,
    '-t',
    String(SECONDS),
    '-f',
    'f32le',
    '-ac',
    '2',
    '-ar',
    '44100',
    raw,
  ]);
  const bytes = readFileSync(raw);
  const inter = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const frames = inter.length / 2;
  const channels = [new Float32Array(frames), new Float32Array(frames)];
  for (let i = 0; i < frames; i++) {
    channels[0]![i] = inter[2 * i]!;
    channels[1]![i] = inter[2 * i + 1]!;
  }
  let oursBpm = 0;
  let aubioText = '';
  const ours = async () => {
    const t0 = performance.now();
    oursBpm = (await analyzeSongFacts(channels, 44100)).facts.tempoBpm;
    return performance.now() - t0;
  };
  const reference = () => {
    const t0 = performance.now();
    const run = spawnSync('aubio', ['tempo', '-i', wav], { encoding: 'utf8' });
    aubioText = run.stdout.trim().split('\n').at(-1) ?? '';
    return performance.now() - t0;
  };
  await ours(); // warm-up: the JIT, as a worker that has analysed one beat
  const p = await pairedRounds(ours, reference);
  printEnvironment(undefined);
  printTable(
    ['beat', 'ours ms', 'aubio tempo ms', 'ours / aubio', 'ours BPM', 'aubio', 'verdict'],
    [
      [
        `${SPEC.name} (${SECONDS / 60} min)`,
        fmtMs(p.ours),
        fmtMs(p.reference),
        fmtRatio(p.ratio),
        oursBpm.toFixed(2),
        aubioText,
        `${p.ours.median < 1000 ? 'under' : 'over'} 1 s; ${verdict(p, 1)}`,
      ],
    ],
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
