import { describe, expect, it } from 'vitest';
import { ThreeBandCrossover } from './crossover';
import { MultibandCompressor, multibandParamsFor } from './multiband-compressor';
import { musicLike } from './test-signals';

const RATE = 44100;

/** Magnitude in dB of the crossover's band sum at `hz`, from its response to a unit impulse. */
const sumResponse = (n: number) => {
  const crossover = new ThreeBandCrossover(RATE, 1, { lowHz: 150, highHz: 2500 });
  const impulse = new Float32Array(n);
  impulse[0] = 1;
  crossover.split([impulse], 0, n);
  const [low, mid, high] = crossover.bands.map((b) => b[0]!) as [Float32Array, Float32Array, Float32Array];
  const sum = Float64Array.from({ length: n }, (_, i) => low[i]! + mid[i]! + high[i]!);
  return { sum, low, mid, high };
};

const magnitudeDb = (h: ArrayLike<number>, hz: number): number => {
  let re = 0;
  let im = 0;
  const w = (2 * Math.PI * hz) / RATE;
  for (let i = 0; i < h.length; i++) {
    re += h[i]! * Math.cos(w * i);
    im -= h[i]! * Math.sin(w * i);
  }
  return 10 * Math.log10(re * re + im * im);
};

describe('Linkwitz-Riley three-band crossover', () => {
  it('the bands sum flat (within 0.01 dB from 20 Hz to 20 kHz); each band is -6 dB at its crossovers', () => {
    const { sum, low, mid, high } = sumResponse(1 << 15);
    for (let hz = 20; hz <= 20000; hz *= 2 ** (1 / 6))
      expect(Math.abs(magnitudeDb(sum, hz))).toBeLessThan(0.01);
    expect(magnitudeDb(low, 150)).toBeCloseTo(-6.02, 1);
    expect(magnitudeDb(mid, 2500)).toBeCloseTo(-6.02, 1);
    expect(magnitudeDb(high, 2500)).toBeCloseTo(-6.02, 1);
    // 4th order: 24 dB per octave away from the corner.
    expect(magnitudeDb(low, 1200)).toBeLessThan(-40);
    expect(magnitudeDb(high, 312.5)).toBeLessThan(-40);
  });

  it('at compression 0 the multiband path changes magnitude nowhere (ratio 1:1 in every band)', () => {
    const params = multibandParamsFor(0, [
      { rmsDb: -20, peakDb: -5 },
      { rmsDb: -20, peakDb: -5 },
      { rmsDb: -20, peakDb: -5 },
    ]);
    expect(params.every((p) => p.ratio === 1)).toBe(true);
    const music = musicLike({ seconds: 2, seed: 3 });
    const compressor = new MultibandCompressor(RATE, 2, params);
    const out = music.map((c) => c.slice());
    compressor.process(out, 0, out[0]!.length);
    let energyIn = 0;
    let energyOut = 0;
    for (let c = 0; c < 2; c++)
      for (let i = 0; i < out[c]!.length; i++) {
        energyIn += music[c]![i]! ** 2;
        energyOut += out[c]![i]! ** 2;
      }
    expect(Math.abs(10 * Math.log10(energyOut / energyIn))).toBeLessThan(0.05);
  });
});
