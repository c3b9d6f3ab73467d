import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { ThreeBandCrossover } from '../crossover';
import { crossoverKernel } from './crossover-kernel';
import { restoreWasmKernelsAfterEach, stretchedNoise } from './kernel-signals.test-helper';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;

restoreWasmKernelsAfterEach();

const signal = (frames: number, seed: number): Float32Array => stretchedNoise(frames, seed, 0.9);

/** The bands of each block, concatenated, from a crossover run over `blocks` (sizes) in turn. */
const splitAll = (wasm: boolean, left: Float32Array, right: Float32Array, blocks: number[]) => {
  setWasmKernels(wasm);
  const crossover = new ThreeBandCrossover(RATE, 2, { lowHz: 180, highHz: 3200 });
  const out = [0, 1, 2].map(() => [new Float32Array(left.length), new Float32Array(left.length)]);
  let start = 0;
  for (const size of blocks) {
    const end = Math.min(left.length, start + size);
    crossover.split([left, right], start, end);
    for (let b = 0; b < 3; b++)
      for (let c = 0; c < 2; c++) out[b]![c]!.set(crossover.bands[b]![c]!.subarray(0, end - start), start);
    start = end;
  }
  return out;
};

describe('crossover kernel', () => {
  it('runs here (WebAssembly SIMD in Node)', () => {
    expect(crossoverKernel()).not.toBeNull();
  });

  it('is its .wat assembled (build-wasm.mjs)', async () => {
    const committed = fs.readFileSync('src/audio/dsp/wasm/crossover-kernel.wasm.ts', 'utf8');
    expect(await assemble('src/audio/dsp/wasm/crossover-kernel.wat')).toBe(committed);
  });

  for (const [name, blocks] of [
    ['render blocks of 4096', Array(30).fill(4096)],
    ['worklet blocks of 128 and odd sizes', [128, 128, 1, 5000, 333, 4096, 8193, 0, 77, 40000]],
  ] as const) {
    it(`splits into the JavaScript's bands bit for bit: ${name}`, () => {
      const left = signal(60000, 1);
      const right = signal(60000, 2);
      const wasm = splitAll(true, left, right, [...blocks]);
      const js = splitAll(false, left, right, [...blocks]);
      let differing = 0;
      for (let b = 0; b < 3; b++)
        for (let c = 0; c < 2; c++)
          for (let i = 0; i < left.length; i++) if (!Object.is(wasm[b]![c]![i], js[b]![c]![i])) differing++;
      expect(differing).toBe(0);
      // Not all silence: the bands carry the signal.
      expect(wasm[0]![0]!.some((v) => Math.abs(v) > 0.01)).toBe(true);
      expect(wasm[2]![1]!.some((v) => Math.abs(v) > 0.01)).toBe(true);
    });
  }
});
