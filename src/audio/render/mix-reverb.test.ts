import { describe, expect, it } from 'vitest';
import { VocalReverb } from './mix-reverb';

describe('VocalReverb', () => {
  it('returns a light, decaying, stereo tail after the pre-delay', () => {
    const sr = 44_100;
    const n = sr * 3;
    const mono = new Float32Array(n);
    mono[0] = 1;
    const left = new Float32Array(n);
    const right = new Float32Array(n);
    const reverb = new VocalReverb(sr);
    for (let s = 0; s < n; s += 4096) reverb.process(mono, left, right, s, Math.min(n, s + 4096));
    // Nothing before the 20 ms pre-delay.
    expect(left.subarray(0, Math.round(0.019 * sr)).every((v) => v === 0)).toBe(true);
    const energy = (x: Float32Array, a: number, b: number) => x.subarray(a, b).reduce((e, v) => e + v * v, 0);
    const early = energy(left, 0, sr / 2);
    const late = energy(left, 2 * sr, 3 * sr);
    expect(late).toBeLessThan(early / 100);
    // Light: the whole return carries far less energy than the dry impulse (1.0).
    const total = energy(left, 0, n) + energy(right, 0, n);
    expect(total).toBeGreaterThan(1e-4);
    expect(total).toBeLessThan(0.2);
    // Stereo: the two sides differ.
    let diff = 0;
    for (let i = 0; i < n; i++) diff += Math.abs(left[i]! - right[i]!);
    expect(diff).toBeGreaterThan(0.01);
    expect(left.every(Number.isFinite)).toBe(true);
  });

  it('sits about 18 dB under the dry signal on steady material', () => {
    const sr = 48_000;
    const n = sr * 3;
    let seed = 1;
    const noise = Float32Array.from({ length: n }, () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 4294967296 - 0.5;
    });
    const left = new Float32Array(n);
    const right = new Float32Array(n);
    new VocalReverb(sr).process(noise, left, right, 0, n);
    const energy = (x: Float32Array) => x.subarray(sr).reduce((e, v) => e + v * v, 0);
    const db = 10 * Math.log10((energy(left) + energy(right)) / 2 / energy(noise));
    expect(db).toBeGreaterThan(-22);
    expect(db).toBeLessThan(-14);
  });
});
