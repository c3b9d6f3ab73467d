import { describe, expect, it } from 'vitest';
import { measureLoudness } from './loudness';
import { dbfs, shapedNoise, sine } from './test-signals';
import { analyseTrack, THIRD_OCTAVE_CENTRES } from './track-analysis';

const RATE = 44100;
const bandOf = (hz: number) =>
  THIRD_OCTAVE_CENTRES.findIndex((fc) => hz >= fc * 2 ** (-1 / 6) && hz < fc * 2 ** (1 / 6));

describe('track analysis (one pass)', { timeout: 120_000 }, () => {
  it('a -6 dBFS 1 kHz sine: its band reads -6 dB, crest 3.01 dB, mono image, PLR = peak - loudness', () => {
    const a = analyseTrack(sine(RATE, 10, 1000, -6), RATE);
    const k = bandOf(1000);
    expect(a.midDb[k]!).toBeCloseTo(-6, 1);
    // Neighbours two bands away see only the window's leakage.
    expect(a.midDb[k - 2]!).toBeLessThan(-60);
    expect(a.midDb[k + 2]!).toBeLessThan(-60);
    expect(a.crestDb).toBeCloseTo(10 * Math.log10(2), 2);
    expect(a.sideDb.every((v) => v === -Infinity || v < -200)).toBe(true);
    for (const band of a.stereo) expect(band.correlation).toBeCloseTo(1, 6);
    const loud = measureLoudness(sine(RATE, 10, 1000, -6), RATE, { truePeak: false });
    expect(a.integratedLufs).toBeCloseTo(loud.integratedLufs, 6);
    expect(a.plrDb).toBeCloseTo(-6 - loud.integratedLufs, 2);
  });

  it('pink noise reads flat across the 1/3-octave bands; a +6 dB/oct shelf above 4 kHz shows as such', () => {
    const pink = analyseTrack(shapedNoise({ stereo: 'mono' }), RATE);
    const from = bandOf(50);
    const to = bandOf(16000);
    const mean = pink.midDb.slice(from, to + 1).reduce((s, v) => s + v, 0) / (to - from + 1);
    for (let k = from; k <= to; k++) expect(Math.abs(pink.midDb[k]! - mean)).toBeLessThan(1);
    const bright = analyseTrack(
      shapedNoise({ stereo: 'mono', shapeDb: (hz) => (hz > 4000 ? 6 * Math.log2(hz / 4000) : 0) }),
      RATE,
    );
    const rise = (a: typeof pink) => a.midDb[bandOf(16000)]! - a.midDb[bandOf(4000)]!;
    expect(rise(bright) - rise(pink)).toBeGreaterThan(11);
    expect(rise(bright) - rise(pink)).toBeLessThan(13);
  });

  it('stereo: independent channels correlate ~0 with width ~0.5; anti-phase bass reads negative below 120 Hz', () => {
    const wide = analyseTrack(shapedNoise({ stereo: 'wide' }), RATE);
    for (const band of wide.stereo) {
      expect(Math.abs(band.correlation)).toBeLessThan(0.1);
      expect(band.width).toBeGreaterThan(0.4);
      expect(band.width).toBeLessThan(0.6);
    }
    const bass = analyseTrack(shapedNoise({ stereo: 'antiphase-bass' }), RATE);
    expect(bass.lowEndCorrelation).toBeLessThan(-0.8);
    expect(bass.stereo[2]!.correlation).toBeGreaterThan(0.99);
  });

  it('finds the loudest 30 s and measures the loudness range of the whole', () => {
    // 70 s of sine at -30 dBFS with 30 s at -10 dBFS from 25 s.
    const n = 70 * RATE;
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const t = i / RATE;
      data[i] = dbfs(t >= 25 && t < 55 ? -10 : -30) * Math.sin((2 * Math.PI * 440 * i) / RATE);
    }
    const a = analyseTrack([data, data.slice()], RATE);
    expect(a.loudest.startSeconds).toBeCloseTo(25, 0);
    expect(a.loudest.seconds).toBe(30);
    expect(a.loudnessRangeLu).toBeCloseTo(measureLoudness([data, data], RATE).loudnessRangeLu, 6);
    expect(a.loudnessRangeLu).toBeGreaterThan(15);
  });
});
