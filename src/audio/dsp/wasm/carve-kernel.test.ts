/**
 * The carve's WebAssembly kernel (decision 311) against VocalSpaceProcessor's JavaScript: the very same
 * samples (tolerance 0, Object.is per sample), whatever the blocks, the amount's moves, the beat's and the
 * vocal's channel counts.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { analyseVocalSpace, VocalSpaceProcessor } from '../vocal-space';
import { carveKernel } from './carve-kernel';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;
const SECONDS = 4;

/** A deterministic pseudo-random sequence (mulberry32), -1..1. */
const noise = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  };
};

/** A dense stereo beat: noise plus a few tones across 1-5 kHz, with a silent stretch at the end. */
const beatOf = (channels: number) => {
  const n = RATE * SECONDS;
  return Array.from({ length: channels }, (_, c) => {
    const r = noise(7 + c);
    return Float32Array.from({ length: n }, (_, i) =>
      i > n - RATE / 2
        ? 0
        : 0.3 * r() + 0.2 * Math.sin((2 * Math.PI * (1200 + 900 * c) * i) / RATE) + 0.1 * Math.sin(i * 0.5),
    );
  });
};

/** A "vocal": tones in its band that sing for 0.4 s and rest for 0.3 s (the gate opens and the cut releases). */
const vocalOf = (channels: number) => {
  const n = RATE * SECONDS;
  return Array.from({ length: channels }, (_, c) =>
    Float32Array.from({ length: n }, (_, i) => {
      const on = i % Math.round(0.7 * RATE) < 0.4 * RATE ? 1 : 0;
      return on * (0.2 * Math.sin((2 * Math.PI * (1800 + 100 * c) * i) / RATE) + 0.05 * Math.sin(i * 0.9));
    }),
  );
};

/** Random block sizes 1..600 (the worklet's 128 and the render's 4096 included), from a seed. */
const blocks = (seed: number, n: number): [number, number][] => {
  const r = noise(seed);
  const out: [number, number][] = [];
  for (let at = 0; at < n; ) {
    const len = seed === 0 ? 4096 : seed === 1 ? 128 : 1 + Math.floor(((r() + 1) / 2) * 600);
    out.push([at, Math.min(n, at + len)]);
    at += len;
  }
  return out;
};

const carve = (wasm: boolean, beatChannels: number, vocalChannels: number, seed: number) => {
  setWasmKernels(wasm);
  const beat = beatOf(beatChannels);
  const vocal = vocalOf(vocalChannels);
  const p = new VocalSpaceProcessor(RATE, beatChannels, analyseVocalSpace(vocal, RATE), 100);
  const cuts: number[] = [];
  for (const [start, end] of blocks(seed, beat[0]!.length)) {
    // The amount moves mid-stream: off (the cut releases to exactly 0), back on, down to 40.
    if (start >= RATE && start < 1.5 * RATE) p.setAmount(0);
    else if (start >= 2.5 * RATE) p.setAmount(40);
    else p.setAmount(100);
    p.process(beat, vocal, start, end);
    cuts.push(p.cutDb);
  }
  return { beat, cuts };
};

describe('carve kernel', () => {
  afterEach(() => setWasmKernels(true));

  it('is the assembly of its .wat source, and runs here (WebAssembly SIMD in Node)', async () => {
    const wat = 'src/audio/dsp/wasm/carve-kernel.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    setWasmKernels(true);
    expect(carveKernel()).not.toBeNull();
  });

  for (const [beatChannels, vocalChannels] of [
    [2, 1],
    [2, 2],
    [1, 1],
  ] as const)
    for (const seed of [0, 1, 2, 3])
      it(`${beatChannels}-channel beat, ${vocalChannels}-channel vocal, blocks ${seed}: the JavaScript's samples`, () => {
        const js = carve(false, beatChannels, vocalChannels, seed);
        const wasm = carve(true, beatChannels, vocalChannels, seed);
        const input = beatOf(beatChannels);
        for (let c = 0; c < beatChannels; c++) {
          let changed = 0;
          let differ = 0;
          for (let i = 0; i < input[c]!.length; i++) {
            if (!Object.is(js.beat[c]![i], input[c]![i])) changed++;
            if (!Object.is(wasm.beat[c]![i], js.beat[c]![i])) differ++;
          }
          // The carve did something, and the kernel did exactly the same.
          expect(changed).toBeGreaterThan(RATE);
          expect(differ).toBe(0);
        }
        expect(wasm.cuts).toEqual(js.cuts);
        expect(Math.max(...js.cuts)).toBeGreaterThan(1);
      });
});
