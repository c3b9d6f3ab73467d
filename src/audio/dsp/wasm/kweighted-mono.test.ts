import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { kWeighting, LoudnessMeter } from '../loudness';
import { restoreWasmKernelsAfterEach, stretchedNoise } from './kernel-signals.test-helper';
import { kWeightedMono } from './kweighted-mono';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;

restoreWasmKernelsAfterEach();

const signal = (frames: number, seed: number): Float32Array => stretchedNoise(frames, seed, 0.7);

describe('the one-channel K-weighting kernel (decision 314)', () => {
  it('is the assembly of its .wat source, and runs here (Node has WebAssembly SIMD)', async () => {
    const wat = 'src/audio/dsp/wasm/kweighted-mono.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    expect(kWeightedMono()).not.toBeNull();
    setWasmKernels(false);
    expect(kWeightedMono()).toBeNull();
  });

  it('meters one channel (and any channel of several) as the JavaScript does: every sub-block sum', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.constantFrom(1, 3),
        (pushes, seed, channels) => {
          const frames = pushes.reduce((a, b) => a + b, 0);
          const input = Array.from({ length: channels }, (_, c) => signal(frames, seed + c));
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const meter = new LoudnessMeter(RATE, channels, {
              truePeak: false,
              weights: channels === 1 ? [2] : undefined,
            });
            let at = 0;
            for (const n of pushes) {
              meter.push(input, at, at + n);
              at += n;
            }
            const sums = Array.from({ length: meter.subBlockCount }, (_, k) => meter.windowSum(k, 1).sum);
            return { sums, report: meter.report() };
          };
          const js = run(false);
          const wasm = run(true);
          expect(wasm.sums).toEqual(js.sums);
          expect(wasm.report).toEqual(js.report);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('sums a span longer than its chunk as one loop would, and keeps its state (1 and 2 frames too)', () => {
    const k = kWeighting(48000);
    const [sb0, sb1, sb2, sa1, sa2] = k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = k.highpass;
    const input = Float32Array.from({ length: 40000 }, (_, i) => Math.sin(i * 0.013) * 0.6 + (i % 7) * 0.01);
    const plain = [0.1, -0.2, 0.05, 0.3];
    const state = Float64Array.of(9, 9, ...plain, 9);
    for (const [start, end] of [
      [0, 40000],
      [5, 6],
      [100, 102],
      [7, 7],
    ] as const) {
      let [s1, s2, h1, h2] = plain as [number, number, number, number];
      let sum = 0;
      for (let i = start; i < end; i++) {
        const x = input[i]!;
        const y = sb0 * x + s1;
        s1 = sb1 * x - sa1 * y + s2;
        s2 = sb2 * x - sa2 * y;
        const z = hb0 * y + h1;
        h1 = hb1 * y - ha1 * z + h2;
        h2 = hb2 * y - ha2 * z;
        sum += z * z;
      }
      expect(kWeightedMono()!.sumOfSquares(k, state, 2, input, start, end)).toBe(sum);
      expect([...state]).toEqual([9, 9, s1, s2, h1, h2, 9]);
      state.set(plain, 2);
    }
  });
});
