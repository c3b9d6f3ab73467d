import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BiquadCascade, type BiquadKind, designBiquad } from './biquad';
import { PipelinedCascade } from './pipelined-cascade';
import { setWasmKernels } from './wasm/simd-kernels';

const RATE = 44100;
const KINDS: BiquadKind[] = ['highpass', 'lowpass', 'bandpass', 'lowshelf', 'highshelf', 'peaking'];
const section = fc.record({
  kind: fc.constantFrom(...KINDS),
  frequency: fc.double({ min: 30, max: 18000, noNaN: true }),
  q: fc.double({ min: 0.3, max: 6, noNaN: true }),
  gainDb: fc.double({ min: -12, max: 12, noNaN: true }),
});

const noise = (n: number, seed: number) => {
  let s = seed >>> 0 || 1;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s / 2 ** 32 - 0.5) * 1.6;
  });
};

/** The samples whose bits differ. */
const differing = (a: Float32Array, b: Float32Array) => {
  const x = new Uint32Array(a.buffer);
  const y = new Uint32Array(b.buffer);
  let d = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) d++;
  return d;
};

describe('PipelinedCascade (decision 290)', () => {
  afterEach(() => setWasmKernels(true));

  it('gives the bits of BiquadCascade.process over the same blocks, in SIMD and in JavaScript', () => {
    fc.assert(
      fc.property(
        fc.array(section, { minLength: 0, maxLength: 7 }),
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.boolean(),
        fc.integer(),
        (designs, sizes, lastSize, wasm, seed) => {
          setWasmKernels(wasm);
          // Equal blocks and a shorter (or longer) last one, as the mixdown's blocks come.
          const block = sizes[0]!;
          const blocks = [...Array(sizes.length).fill(block), lastSize];
          const total = blocks.reduce((a, b) => a + b, 0);
          const coefs = designs.map((d) => designBiquad(d, RATE));
          const x = noise(total, seed);
          const y = Float32Array.from(x);
          const plain = new BiquadCascade(coefs.length, 1);
          for (const [i, c] of coefs.entries()) plain.setSection(i, c);
          const piped = new PipelinedCascade(coefs);
          const finished: number[] = [];
          let at = 0;
          for (const n of blocks) {
            plain.process(x, 0, at, at + n);
            const done = piped.push(y, at, at + n);
            if (done) finished.push(done.start, done.end);
            at += n;
          }
          const last = piped.finish(y);
          if (last) finished.push(last.start, last.end);
          // Every block comes back once, in order.
          const expected = blocks.flatMap((n, i) => {
            const s = blocks.slice(0, i).reduce((a, b) => a + b, 0);
            return [s, s + n];
          });
          return differing(x, y) === 0 && finished.join() === expected.join();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('really filters (a high-pass takes a constant away)', () => {
    const piped = new PipelinedCascade([
      designBiquad({ kind: 'highpass', frequency: 80, q: Math.SQRT1_2 }, RATE),
      designBiquad({ kind: 'peaking', frequency: 1000, q: 1, gainDb: 3 }, RATE),
    ]);
    const x = new Float32Array(RATE).fill(0.5);
    for (let s = 0; s < x.length; s += 4096) piped.push(x, s, Math.min(x.length, s + 4096));
    piped.finish(x);
    expect(Math.abs(x[x.length - 1]!)).toBeLessThan(1e-4);
    expect(x[0]).toBeCloseTo(0.5 * 10 ** (0 / 20), 1);
  });
});
