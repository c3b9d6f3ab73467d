import { describe, expect, it } from 'vitest';
import { setReverbKernel } from '../dsp/wasm/reverb-kernel';
import { type ReverbSettings, VocalReverb } from './mix-reverb';

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

  it('gives the very samples of its JavaScript loop in WebAssembly (tolerance 0), in place and not', () => {
    const sr = 44_100;
    const n = sr * 4;
    // Noise bursts, silence (the low-pass flush) and a tone, at odd block sizes so the rings wrap anywhere.
    let state = 11;
    const mono = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const section = Math.floor(i / 30_000) % 3;
      mono[i] = section === 0 ? state / 0x7fffffff - 0.5 : section === 1 ? 0 : 0.3 * Math.sin(i * 0.05);
    }
    const render = (kernel: boolean, inPlace: boolean, settings?: ReverbSettings) => {
      setReverbKernel(kernel);
      const reverb = new VocalReverb(sr, settings);
      setReverbKernel(true);
      const left = inPlace ? mono.slice() : new Float32Array(n).fill(0.25);
      const right = new Float32Array(n).fill(-0.125);
      const source = inPlace ? left : mono;
      for (let s = 0, b = 0; s < n; b++) {
        const e = Math.min(n, s + [4096, 77, 20_000, 1][b % 4]!);
        reverb.process(source, left, right, s, e);
        s = e;
      }
      return [left, right];
    };
    const bits = (x: Float32Array) => new Uint32Array(x.buffer);
    const room: ReverbSettings = { decay: 2.4, damping: 0.5, wet: 0.3, preDelay: 0.035 };
    for (const inPlace of [false, true])
      for (const settings of [undefined, room]) {
        const fast = render(true, inPlace, settings);
        const reference = render(false, inPlace, settings);
        for (let c = 0; c < 2; c++) {
          let differing = 0;
          const [x, y] = [bits(fast[c]!), bits(reference[c]!)];
          for (let i = 0; i < n; i++) if (x[i] !== y[i]) differing++;
          expect(differing).toBe(0);
        }
        expect(fast[0]!.some((v, i) => v !== (inPlace ? mono[i] : 0.25))).toBe(true);
      }
  });
});
