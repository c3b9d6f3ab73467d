import { describe, expect, it } from 'vitest';
import { primeSignal } from './prime-signal';

const peakDb = (c: Float32Array) => 20 * Math.log10(c.reduce((m, v) => Math.max(m, Math.abs(v)), 0));
const rms = (c: Float32Array, from: number, to: number) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += c[i]! ** 2;
  return Math.sqrt(sum / (to - from));
};

describe('primeSignal (decision 298)', () => {
  it('is stereo music with headroom: kicks every half second, hats apart left and right', async () => {
    const rate = 44_100;
    const [left, right] = await primeSignal(6, rate);
    expect(left!.length).toBe(6 * rate);
    expect(right!.length).toBe(6 * rate);
    expect(left!.every(Number.isFinite) && right!.every(Number.isFinite)).toBe(true);
    // Room to master, as the demo tracks leave (their peak is -8 dBFS).
    expect(peakDb(left!)).toBeGreaterThan(-10);
    expect(peakDb(left!)).toBeLessThan(-5);
    // Each beat starts loud (the kick) and ends quiet: the compressors and the limiter have work.
    const beat = rate / 2;
    for (let b = 0; b < 12; b++) {
      const head = rms(left!, b * beat, b * beat + 2205);
      const tail = rms(left!, b * beat + beat - 2205, (b + 1) * beat);
      expect(20 * Math.log10(head / tail)).toBeGreaterThan(6);
    }
    let differ = 0;
    for (let i = 0; i < left!.length; i++) if (left![i] !== right![i]) differ++;
    expect(differ).toBeGreaterThan(left!.length / 4);
  });

  it('makes the same music every time', async () => {
    const a = await primeSignal(1, 48_000);
    const b = await primeSignal(1, 48_000);
    expect(a).toEqual(b);
  });
});
