import { describe, expect, it } from 'vitest';
import { ditherKey, tpdfAt } from '../dsp/dither';
import { interleaveInt16 } from './pcm-quantise';

/** The reference: one sample at a time, Math.round, the dither of its place in the interleaved file. */
const reference = (channels: Float32Array[], key: number | null): Int16Array => {
  const count = channels.length;
  const frames = channels[0]!.length;
  const out = new Int16Array(frames * count);
  for (let i = 0; i < frames; i++)
    for (let c = 0; c < count; c++) {
      const k = i * count + c;
      const v = Math.round(channels[c]![i]! * 32768 + (key === null ? 0 : tpdfAt(key, k)));
      out[k] = Math.max(-32768, Math.min(32767, v));
    }
  return out;
};

/** Music-like floats with full-scale overs, exact half-LSB ties and silence. */
const material = (frames: number, seed: number): Float32Array => {
  const x = new Float32Array(frames);
  let s = seed;
  for (let i = 0; i < frames; i++) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    const r = (s >>> 8) / 16_777_216;
    if (i % 97 === 0) x[i] = (Math.round(r * 4000) - 2000 + 0.5) / 32768;
    else if (i % 101 === 0) x[i] = (r - 0.5) * 2.4;
    else if (i % 89 === 0) x[i] = 0;
    else x[i] = 0.6 * Math.sin(i / 37) + (r - 0.5) * 0.3;
  }
  return x;
};

/** The fused loop over blocks of random sizes, as the encoders cut a file. */
const inBlocks = (channels: Float32Array[], key: number | null, seed: number): Int16Array => {
  const frames = channels[0]!.length;
  const out = new Int16Array(frames * channels.length);
  let s = seed;
  for (let start = 0; start < frames; ) {
    s = (Math.imul(s, 69069) + 1) | 0;
    const n = Math.min(frames - start, 1 + ((s >>> 8) % 5000));
    const block = new Int16Array(n * channels.length);
    interleaveInt16(channels, start, n, block, key);
    out.set(block, start * channels.length);
    start += n;
  }
  return out;
};

describe('interleaveInt16 (the WAV export fast path)', () => {
  const frames = 20_001;
  for (const count of [1, 2]) {
    const channels = Array.from({ length: count }, (_, c) => material(frames, c + 1));
    for (const [label, key] of [
      ['no dither', null],
      ['dithered', ditherKey()],
      ['seed -5', ditherKey(-5)],
    ] as const)
      it(`matches the per-sample reference bit for bit: ${count} ch, ${label}`, () => {
        expect(inBlocks(channels, key, 3)).toEqual(reference(channels, key));
        expect(inBlocks(channels, key, 4)).toEqual(inBlocks(channels, key, 5));
      });
  }

  it('changes a sample only by the dither: at most 1 LSB from plain rounding, error variance 1/4 LSB²', () => {
    const x = Float32Array.from(
      { length: 200_000 },
      (_, i) => 0.25 * Math.sin((2 * Math.PI * 997 * i) / 44_100),
    );
    const plain = new Int16Array(x.length);
    const dithered = new Int16Array(x.length);
    interleaveInt16([x], 0, x.length, plain, null);
    interleaveInt16([x], 0, x.length, dithered, ditherKey());
    let sq = 0;
    let sum = 0;
    let farther = 0;
    for (let i = 0; i < x.length; i++) {
      if (Math.abs(dithered[i]! - plain[i]!) > 1) farther++;
      const e = dithered[i]! - x[i]! * 32768;
      sum += e;
      sq += e * e;
    }
    expect(farther).toBe(0);
    expect(Math.abs(sum / x.length)).toBeLessThan(0.01);
    expect(sq / x.length).toBeGreaterThan(0.23);
    expect(sq / x.length).toBeLessThan(0.27);
  });
});
