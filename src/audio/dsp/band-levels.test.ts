import { describe, expect, it } from 'vitest';
import { ANALYSIS_BANDS, bandLevelExcerpt, fft, measureBandLevels } from './band-levels';
import { LevelMeter, type LevelReading } from './level-meter';
import { musicLike, sine } from './test-signals';

describe('band levels', () => {
  it('has the seven bands of the spec', () => {
    expect(ANALYSIS_BANDS.map((b) => `${b.name} ${b.lowHz}-${b.highHz}`)).toEqual([
      'Sub Bass 20-60',
      'Bass 60-250',
      'Low Mids 250-500',
      'Mids 500-2000',
      'High Mids 2000-4000',
      'Presence 4000-6000',
      'Brilliance 6000-20000',
    ]);
  });

  it('a sine reads its level in its own band and far less elsewhere', () => {
    const probes: [number, string][] = [
      [40, 'Sub Bass'],
      [120, 'Bass'],
      [350, 'Low Mids'],
      [1000, 'Mids'],
      [3000, 'High Mids'],
      [5000, 'Presence'],
      [10000, 'Brilliance'],
    ];
    for (const [frequency, name] of probes) {
      const levels = measureBandLevels(sine(44100, 4, frequency, -12), 44100);
      for (const band of levels) {
        if (band.name === name) expect(Math.abs(band.levelDb + 12)).toBeLessThan(0.2);
        else expect(band.levelDb).toBeLessThan(-40);
      }
    }
  });

  it('the excerpt of the frames it reads measures to the same levels, bit for bit, at any length', () => {
    const music = musicLike({ seconds: 12, sampleRate: 44100, seed: 3 });
    // Shorter than one frame, a few frames, fewer and more than the 96 frames measured.
    for (const frames of [1000, 4096, 3 * 4096 + 17, 50 * 4096 + 5, 100 * 4096 + 1, music[0]!.length]) {
      const channels = music.map((c) => c.subarray(0, frames));
      for (const options of [{}, { size: 1024, maxFrames: 7 }]) {
        const excerpt = bandLevelExcerpt(channels, options);
        expect(excerpt[0]!.length).toBeLessThanOrEqual(channels[0]!.length);
        expect(measureBandLevels(excerpt, 44100, options)).toEqual(
          measureBandLevels(channels, 44100, options),
        );
      }
    }
  });
});

describe('level meter', () => {
  it('reports RMS and peak every 100 ms', () => {
    const readings: LevelReading[] = [];
    const meter = new LevelMeter(44100, (r) => readings.push(r));
    const signal = sine(44100, 1, 1000, -6);
    for (let i = 0; i < 44100; i += 128) meter.push(signal, i, Math.min(44100, i + 128));
    expect(readings).toHaveLength(10);
    for (const r of readings) {
      expect(r.peakDb).toBeCloseTo(-6, 1);
      expect(r.rmsDb).toBeCloseTo(-6 - 3.0103, 1);
    }
  });
});

describe('fft', () => {
  it('is the DFT at every size the analyses use (twiddles from the per-size tables)', () => {
    for (const n of [1, 2, 8, 512, 4096]) {
      const re = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 1.3) + 0.25 * Math.cos(i * 0.07));
      const im = Float64Array.from({ length: n }, (_, i) => Math.cos(i * 0.51) - 0.1);
      const [xr, xi] = [re.slice(), im.slice()];
      fft(re, im);
      let worst = 0;
      for (const k of [0, 1, n >> 2, n >> 1, n - 1]) {
        if (k >= n) continue;
        let sr = 0;
        let si = 0;
        for (let t = 0; t < n; t++) {
          const a = (-2 * Math.PI * k * t) / n;
          sr += xr[t]! * Math.cos(a) - xi[t]! * Math.sin(a);
          si += xr[t]! * Math.sin(a) + xi[t]! * Math.cos(a);
        }
        worst = Math.max(worst, Math.abs(sr - re[k]!), Math.abs(si - im[k]!));
      }
      expect(worst).toBeLessThan(1e-9 * n);
    }
  });
});
