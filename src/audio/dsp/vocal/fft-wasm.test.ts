/**
 * The noise reduction's FFT in the WebAssembly SIMD kernel (simd-kernels.wat's `fft`, decision 291) against
 * FftPlan's JavaScript: the same bins bit for bit (tolerance 0, as every kernel of decision 160), on generated
 * spectra of any size the kernel takes and on the noise reduction of real and generated takes.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BiquadCascade, designBiquad } from '../biquad';
import { setWasmKernels, simdKernels } from '../wasm/simd-kernels';
import { analyseVocal } from './analyse-vocal';
import { denoiseInPlace } from './denoise';
import { dirtyTake } from './dirty-take.test-helper';
import { FftPlan } from './fft-plan';
import type { NoisePrint } from './vocal-analysis';

const SR = 44_100;

afterEach(() => {
  setWasmKernels(true);
});

/**
 * Deterministic values over a wide range of magnitudes (the bins of quiet and loud frames), with signed
 * zeros one time in `zeros` (mostly zeros: where a different order of operations shows as a zero's sign).
 */
const values = (n: number, seed: number, zeros = 17): Float64Array => {
  let s = seed >>> 0 || 1;
  return Float64Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    if (s % zeros === 0 || (zeros === 1 && s % 5 !== 0)) return (s >> 3) % 2 ? 0 : -0;
    return (s / 2 ** 31 - 1) * 10 ** ((s % 13) - 8);
  });
};

/** Another kernel's call: it writes the module's memory from byte 0, where the FFT and denoise keep theirs. */
const otherKernel = () => {
  const cascade = new BiquadCascade(3, 2);
  for (let s = 0; s < 3; s++)
    cascade.setSection(s, designBiquad({ kind: 'peaking', frequency: 900, q: 1, gainDb: 6 }, SR));
  cascade.processStereo(new Float32Array(300).fill(0.3), new Float32Array(300).fill(0.2), 0, 300);
};

const sameBits = (a: Float64Array, b: Float64Array): boolean => a.every((v, i) => Object.is(v, b[i]));

/** Forward then inverse of the same input through the JS path or the kernel; both results. */
const transforms = (wasm: boolean, size: number, seed: number, zeros = 17) => {
  setWasmKernels(wasm);
  const plan = new FftPlan(size);
  const re = values(size, seed, zeros);
  const im = values(size, seed * 7 + 3, zeros);
  plan.forwardScrambled(re, im);
  const fwd = [re.slice(), im.slice()];
  // The inverse of other bins than the forward's output, so it is checked on its own.
  const re2 = values(size, seed + 11, zeros);
  const im2 = values(size, seed + 13, zeros);
  plan.inverseScrambled(re2, im2);
  return [...fwd, re2, im2];
};

describe('the FFT kernel (decision 291)', () => {
  it('runs here (Node has WebAssembly SIMD)', () => {
    expect(simdKernels()).not.toBeNull();
  });

  it('gives FftPlan’s JavaScript bins bit for bit: sizes 16 to 8192 (odd and even log2), any values', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 13 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.constantFrom(1, 3, 17, 2 ** 31),
        (bits, seed, zeros) => {
          const js = transforms(false, 2 ** bits, seed, zeros);
          const wasm = transforms(true, 2 ** bits, seed, zeros);
          return js.every((a, i) => sameBits(a, wasm[i]!));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('keeps its twiddles right when another kernel used the memory in between, and for two sizes in turn', () => {
    const reference = [1024, 2048, 1024].map((size) => transforms(false, size, size));
    setWasmKernels(true);
    const got = [1024, 2048, 1024].map((size) => {
      otherKernel();
      return transforms(true, size, size);
    });
    got.forEach((g, k) => {
      g.forEach((a, i) => {
        expect(sameBits(a, reference[k]![i]!)).toBe(true);
      });
    });
  });

  /** The noise reduction of x, kernels on or off, `between` run at each progress tick (every 256 pairs). */
  const denoised = async (x: Float32Array, print: NoisePrint, wasm: boolean, between = () => {}) => {
    setWasmKernels(wasm);
    const y = x.slice();
    const tick = async () => between();
    const pauses = (s: number) => Math.floor(s * 3) % 2 === 0;
    const report = await denoiseInPlace(y, print, { maxReductionDb: 18 }, tick, pauses);
    return { y, report };
  };

  it('denoises a generated take to the same samples as the JavaScript (44.1 and 96 kHz prints; another kernel between pairs)', async () => {
    for (const [rate, fftSize] of [
      [44_100, 1024],
      [96_000, 2048],
    ] as const) {
      const n = 3 * rate;
      let s = 9;
      const x = Float32Array.from({ length: n }, (_, i) => {
        s = (s * 1103515245 + 12345) >>> 0;
        // A voice that swells and fades (never silent where the tick falls, so its gains are above the floor).
        const swell = 0.5 + 0.5 * Math.sin((2 * Math.PI * 0.7 * i) / rate);
        const voice = 0.3 * swell * Math.sin((2 * Math.PI * 220 * i) / rate);
        return voice + 0.01 * (s / 2 ** 31 - 1);
      });
      const print: NoisePrint = {
        fftSize,
        sampleRate: rate,
        magnitudesDb: Array.from({ length: fftSize / 2 + 1 }, (_, k) => -62 - (10 * k) / fftSize),
        frames: 40,
      };
      const js = await denoised(x, print, false);
      const wasm = await denoised(x, print, true);
      const interleaved = await denoised(x, print, true, otherKernel);
      for (const got of [wasm, interleaved]) {
        expect(got.report).toEqual(js.report);
        expect(got.y.every((v, i) => Object.is(v, js.y[i]))).toBe(true);
      }
    }
  });

  it('denoises the real dirty take (espeak voice, recorded hiss) to the same samples as the JavaScript', async () => {
    const take = await dirtyTake(SR);
    if (!take) return;
    const print = analyseVocal([take.vocal], SR, 'pop').noisePrint;
    expect(print.frames).toBeGreaterThan(0);
    const js = await denoised(take.vocal, print, false);
    const wasm = await denoised(take.vocal, print, true);
    expect(wasm.report).toEqual(js.report);
    expect(wasm.y.every((v, i) => Object.is(v, js.y[i]))).toBe(true);
  });
});
