/**
 * The background analyses' checkpoints (a worker's pause points, workers/pause-gate.ts) change nothing they
 * measure: with a checkpoint the levels, the spectrum, the true peak and the vocal's findings are the same, to
 * the bit, as without, on generated material at three rates and on a real track; and the checkpoints come
 * often (a paused job must stop within a few milliseconds of work).
 */
import { describe, expect, it } from 'vitest';
import { decodeWithFfmpeg } from './node-tools.test-helper';
import { musicLike } from './test-signals';
import { trackLevels, trackSpectrum } from './track-analysis';
import { measureTruePeakDb } from './true-peak';
import { analyseVocal } from './vocal/analyse-vocal';

const REAL_MUSIC = '/usr/share/games/asc/music/machine_wars.mp3';

const counted = () => {
  const counter = { calls: 0, checkpoint: () => void counter.calls++ };
  return counter;
};

const checkSame = (channels: Float32Array[], rate: number) => {
  const seconds = channels[0]!.length / rate;
  const levels = counted();
  expect(trackLevels(channels, rate, levels.checkpoint)).toEqual(trackLevels(channels, rate));
  // At least one per second of audio (the section balance's blocks) and per four seconds of loudness.
  expect(levels.calls).toBeGreaterThan(seconds);
  const spectrum = counted();
  expect(trackSpectrum(channels, { checkpoint: spectrum.checkpoint })).toEqual(trackSpectrum(channels));
  expect(spectrum.calls).toBeGreaterThan(0);
  const peak = counted();
  expect(measureTruePeakDb(channels, peak.checkpoint)).toBe(measureTruePeakDb(channels));
  expect(peak.calls).toBe(Math.ceil(channels[0]!.length / (1 << 16)));
  const vocal = counted();
  expect(analyseVocal(channels, rate, 'pop', vocal.checkpoint)).toEqual(analyseVocal(channels, rate, 'pop'));
  expect(vocal.calls).toBeGreaterThan(200);
};

describe('analysis checkpoints', { timeout: 120_000 }, () => {
  for (const rate of [22050, 44100, 48000])
    it(`measure the same with and without, and often, at ${rate} Hz`, () => {
      checkSame(musicLike({ seconds: 33.3, sampleRate: rate, seed: rate }), rate);
    });

  it('measure the same on a real track (asc-music machine_wars, 60 s)', async () => {
    const decoded = await decodeWithFfmpeg(REAL_MUSIC, 44100);
    if (!decoded) {
      console.warn(`skipped: ${REAL_MUSIC} is not installed (Debian's asc-music)`);
      return;
    }
    checkSame(
      decoded.map((c) => c.slice(0, 60 * 44100)),
      44100,
    );
  });
});
