/**
 * The space stage's loop in WebAssembly (issue 26, dsp/wasm/reverb-kernel.wat) gives the very samples and
 * report of its JavaScript loop: tolerance 0.
 */
import { describe, expect, it } from 'vitest';
import { setReverbKernel } from '../wasm/reverb-kernel';
import { vocalTargetFor } from './genre-vocal-targets';
import { type SpaceParams, spaceParamsFor, VocalSpaceFx } from './vocal-space-fx';

const SR = 44_100;

/** A voice that swells from silence through the duck's range to over it and back, with gaps. */
const swellingVoice = (n: number): Float32Array => {
  const voice = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const phase = (i % 60_000) / 60_000;
    const level = phase < 0.1 ? 0 : 0.6 * Math.sin(Math.PI * phase) ** 3;
    voice[i] = level * Math.sin(i * 0.031) * (1 + 0.3 * Math.sin(i * 0.0007));
  }
  return voice;
};

const render = (kernel: boolean, params: SpaceParams, voice: Float32Array, block: number) => {
  setReverbKernel(kernel);
  const fx = new VocalSpaceFx(SR, params, block);
  setReverbKernel(true);
  const n = voice.length;
  const left = new Float32Array(n).fill(0.01);
  const right = new Float32Array(n);
  for (let s = 0, b = 0; s < n; b++) {
    const e = Math.min(n, s + [30_000, 513, 9000][b % 3]!);
    fx.process(voice, left, right, s, e);
    s = e;
  }
  return { left, right, maxDuckDb: fx.maxDuckDb };
};

const differingBits = (a: Float32Array, b: Float32Array): number => {
  const x = new Uint32Array(a.buffer);
  const y = new Uint32Array(b.buffer);
  let count = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) count++;
  return count;
};

describe('space stage in WebAssembly', () => {
  for (const [name, tempo] of [
    ['timed delay', 96],
    ['slap', undefined],
  ] as const)
    it(`${name}: the same returns and deepest duck as the JavaScript loop`, () => {
      const params = spaceParamsFor(vocalTargetFor('pop'), tempo, -14, 1);
      const voice = swellingVoice(SR * 4);
      for (const block of [65_536, 10_000]) {
        const fast = render(true, params, voice, block);
        const reference = render(false, params, voice, block);
        expect(differingBits(fast.left, reference.left)).toBe(0);
        expect(differingBits(fast.right, reference.right)).toBe(0);
        expect(fast.maxDuckDb).toBe(reference.maxDuckDb);
        // The duck went part way (the logarithm's branch) and all the way.
        expect(reference.maxDuckDb).toBe(params.duckDb);
        expect(fast.right.some((v) => v !== 0)).toBe(true);
      }
    });
});
