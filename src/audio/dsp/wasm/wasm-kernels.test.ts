import fs from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { BiquadCascade, type BiquadKind, designBiquad } from '../biquad';
import { kWeighting, LoudnessMeter } from '../loudness';
import { BlockAnalysis } from '../loudness-target';
import { HISTORY, interpolatePeaks } from '../true-peak';
import { setWasmKernels, simdKernels } from './simd-kernels';

const RATE = 44100;
const KINDS: BiquadKind[] = [
  'highpass',
  'lowpass',
  'bandpass',
  'allpass',
  'lowshelf',
  'highshelf',
  'peaking',
];

interface Section {
  kind: BiquadKind;
  frequency: number;
  q: number;
  gainDb: number;
}

/** Any section the designs make: every kind, 15 Hz to 21 kHz, Q 0.3 to 8, +-15 dB. */
const section = fc.record({
  kind: fc.constantFrom(...KINDS),
  frequency: fc.double({ min: 15, max: 21000, noNaN: true }),
  q: fc.double({ min: 0.3, max: 8, noNaN: true }),
  gainDb: fc.double({ min: -15, max: 15, noNaN: true }),
});

const cascadeOf = (sections: Section[]): BiquadCascade => {
  const cascade = new BiquadCascade(sections.length, 2);
  sections.forEach((s, i) => {
    cascade.setSection(i, designBiquad(s, RATE));
  });
  return cascade;
};

/** Runs the same calls through a cascade with the kernel on or off; returns the channels after each call. */
const filtered = (
  wasm: boolean,
  sections: Section[],
  input: [Float32Array, Float32Array],
  calls: [number, number][],
): Float32Array[] => {
  setWasmKernels(wasm);
  const cascade = cascadeOf(sections);
  const left = input[0].slice();
  const right = input[1].slice();
  const after: Float32Array[] = [];
  for (const [start, end] of calls) {
    cascade.processStereo(left, right, start, end);
    after.push(left.slice(), right.slice());
  }
  return after;
};

const sameBits = (a: Float32Array[], b: Float32Array[]): number => {
  let differing = 0;
  a.forEach((x, k) => {
    const y = b[k]!;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) differing++;
  });
  return differing;
};

afterEach(() => {
  setWasmKernels(true);
});

describe('the WebAssembly stereo kernels (decision 160)', () => {
  it('is the assembly of its .wat source, and runs here (Node has WebAssembly SIMD)', async () => {
    const wat = 'src/audio/dsp/wasm/simd-kernels.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    expect(simdKernels()).not.toBeNull();
  });

  it('gives the JavaScript cascade’s output bit for bit: any sections, block sizes and signals', () => {
    fc.assert(
      fc.property(
        fc.array(section, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        (sections, blocks, seed) => {
          const frames = blocks.reduce((a, b) => a + b, 0);
          let s = seed;
          const noise = () => {
            s = (s * 1103515245 + 12345) >>> 0;
            return (s / 2 ** 31 - 1) * 0.8;
          };
          const input: [Float32Array, Float32Array] = [new Float32Array(frames), new Float32Array(frames)];
          for (let i = 0; i < frames; i++) {
            input[0][i] = noise();
            input[1][i] = noise();
          }
          const calls: [number, number][] = [];
          let at = 0;
          for (const b of blocks) {
            calls.push([at, at + b]);
            at += b;
          }
          const js = filtered(false, sections, input, calls);
          const wasm = filtered(true, sections, input, calls);
          return sameBits(js, wasm) === 0;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('runs a chain of cascades as each cascade in turn, bit for bit (sections grouped across borders)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(section, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 4 }),
        (chain, blocks) => {
          const frames = blocks.reduce((a, b) => a + b, 0);
          const input = [0, 1].map((c) =>
            Float32Array.from({ length: frames }, (_, i) => Math.sin(i * (0.3 + c)) * 0.7),
          );
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const cascades = chain.map(cascadeOf);
            const [left, right] = input.map((x) => x.slice()) as [Float32Array, Float32Array];
            let at = 0;
            for (const n of blocks) {
              if (wasm) BiquadCascade.processStereoChain(cascades, left, right, at, at + n);
              else for (const c of cascades) c.processStereo(left, right, at, at + n);
              at += n;
            }
            return [left, right];
          };
          return sameBits(run(false), run(true)) === 0;
        },
      ),
      { numRuns: 40 },
    );
  });

  it('runs two one-channel cascades in the two lanes as each alone (own coefficients), bit for bit', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 8 })
          .chain((n) =>
            fc.tuple(
              fc.array(section, { minLength: n, maxLength: n }),
              fc.array(section, { minLength: n, maxLength: n }),
            ),
          ),
        fc.array(fc.integer({ min: 0, max: 20000 }), { minLength: 1, maxLength: 4 }),
        ([first, second], blocks) => {
          const frames = blocks.reduce((a, b) => a + b, 0);
          const input = [0, 1].map((c) =>
            Float32Array.from(
              { length: frames },
              (_, i) => Math.sin(i * (0.01 + c * 0.7)) * 0.7 + (i % 97) * 1e-3,
            ),
          );
          const mono = (sections: Section[]) => {
            const cascade = new BiquadCascade(sections.length, 1);
            sections.forEach((x, i) => {
              cascade.setSection(i, designBiquad(x, RATE));
            });
            return cascade;
          };
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const [a, b] = [mono(first), mono(second)];
            const [x, y] = input.map((v) => v.slice()) as [Float32Array, Float32Array];
            let at = 0;
            for (const n of blocks) {
              if (wasm) BiquadCascade.processLanes(a, x, b, y, at, at + n);
              else {
                a.process(x, 0, at, at + n);
                b.process(y, 0, at, at + n);
              }
              at += n;
            }
            return [x, y];
          };
          return sameBits(run(false), run(true)) === 0;
        },
      ),
      { numRuns: 40 },
    );
  });

  it('settles a decaying state only at the end of a call, also across its internal chunks', () => {
    // An impulse through a 20 Hz low-pass rings down past 1e-25 about 28 000 frames in: within one call of
    // 48 000 frames (three of the kernel's chunks) the tail must go on decaying as the JS lets it, then the
    // state is flushed when the call ends, and the next call starts from zero as the JS's does.
    const sections: Section[] = [
      { kind: 'lowpass', frequency: 20, q: 0.9, gainDb: 0 },
      { kind: 'lowpass', frequency: 25, q: 0.7, gainDb: 0 },
      { kind: 'highpass', frequency: 18, q: 0.7, gainDb: 0 },
    ];
    const frames = 60000;
    const input: [Float32Array, Float32Array] = [new Float32Array(frames), new Float32Array(frames)];
    input[0][0] = 1;
    input[1][3] = -0.5;
    const calls: [number, number][] = [
      [0, 48000],
      [48000, 48000],
      [48000, 60000],
    ];
    const js = filtered(false, sections, input, calls);
    const wasm = filtered(true, sections, input, calls);
    // The case is what it claims: values under 1e-25 inside the long call, none after it.
    const tail = js[0]!.subarray(40000, 48000);
    expect(tail.some((v) => v !== 0 && Math.abs(v) < 1e-25)).toBe(true);
    expect(js[4]!.subarray(48000).every((v) => v === 0)).toBe(true);
    expect(sameBits(js, wasm)).toBe(0);
  });

  it('K-weight blocks as BlockAnalysis’s JavaScript does: any pushes, across chunks and block boundaries', () => {
    fc.assert(
      fc.property(
        // Pushes of any length, one longer than the kernel's chunk, so runs start mid-block and chunks cut.
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 40000 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (pushes, long, seed) => {
          const sizes = [...pushes, long, 7];
          const frames = sizes.reduce((a, b) => a + b, 0);
          let s = seed;
          const input = [0, 1].map(() => {
            const x = new Float32Array(frames);
            for (let i = 0; i < frames; i++) {
              s = (s * 1103515245 + 12345) >>> 0;
              x[i] = (s / 2 ** 31 - 1) * (i % 5000 < 2500 ? 0.9 : 1e-3);
            }
            return x;
          });
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const analysis = new BlockAnalysis(RATE, 2, frames);
            let at = 0;
            for (const n of sizes) {
              analysis.push(input, at, at + n);
              at += n;
            }
            return analysis;
          };
          const js = run(false);
          const wasm = run(true);
          const same = (x: Float64Array, y: Float64Array) => x.every((v, i) => Object.is(v, y[i]));
          return same(js.energy, wasm.energy) && same(js.sampleMax, wasm.sampleMax);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('meters loudness as LoudnessMeter’s JavaScript does: every sub-block sum, across chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (pushes, seed) => {
          const frames = pushes.reduce((a, b) => a + b, 0);
          let s = seed;
          const input = [0, 1].map(() =>
            Float32Array.from({ length: frames }, (_, i) => {
              s = (s * 1103515245 + 12345) >>> 0;
              return (s / 2 ** 31 - 1) * (i % 20000 < 9000 ? 0.7 : 0.01);
            }),
          );
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const meter = new LoudnessMeter(RATE, 2);
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
      { numRuns: 25 },
    );
  });

  it('sums a span longer than its chunk as one uninterrupted loop would (the running sums stay inside)', () => {
    const k = kWeighting(RATE);
    const frames = 40000;
    const [left, right] = [0, 1].map((c) =>
      Float32Array.from({ length: frames }, (_, i) => Math.sin(i * (0.01 + c * 0.37)) * 0.6),
    );
    // The plain loop of LoudnessMeter's #filterAndSquarePair, for the left channel.
    const [sb0, sb1, sb2, sa1, sa2] = k.shelf;
    const [hb0, hb1, hb2, ha1, ha2] = k.highpass;
    let [s1, s2, h1, h2, sum] = [0, 0, 0, 0, 0];
    for (let i = 0; i < frames; i++) {
      const x = left![i]!;
      const y = sb0 * x + s1;
      s1 = sb1 * x - sa1 * y + s2;
      s2 = sb2 * x - sa2 * y;
      const z = hb0 * y + h1;
      h1 = hb1 * y - ha1 * z + h2;
      h2 = hb2 * y - ha2 * z;
      sum += z * z;
    }
    const [wasmLeft] = simdKernels()!.kWeightedSums(k, new Float64Array(8), left!, right!, 0, frames);
    expect(wasmLeft).toBe(sum);
  });

  it('finds true peaks as interpolatePeaks’s JavaScript does: any range, offset and prior values, across chunks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40000 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.double({ min: 0.1, max: 0.5, noNaN: true }),
        (n, at, seed, cycle) => {
          // Tones near Nyquist (where the vertex refinement works), noise, and exact zeros.
          let s = seed;
          const x = Float32Array.from({ length: HISTORY + n + 40 }, (_, i) => {
            s = (s * 1103515245 + 12345) >>> 0;
            const noise = s / 2 ** 31 - 1;
            return i % 3000 < 200 ? 0 : 0.8 * Math.sin(Math.PI * 2 * cycle * i) + 0.1 * noise;
          });
          const prior = Float64Array.from({ length: at + n + 5 }, (_, i) => (i % 7 === 0 ? 0.9 : 0));
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const out = prior.slice();
            const best = interpolatePeaks(x, HISTORY, HISTORY + n, out, at);
            return { best, out: [...out] };
          };
          const js = run(false);
          const wasm = run(true);
          expect(wasm.best).toBe(js.best);
          expect(wasm.out).toEqual(js.out);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('renders a whole adaptive master with the same samples as the JavaScript loops', async () => {
    const { renderMaster } = await import('../mastering-chain');
    const { musicLike } = await import('../test-signals');
    const { PRESETS } = await import('../../../shared/mastering');
    const source = musicLike({ seconds: 8, sampleRate: RATE, seed: 5 });
    const outputs: Float32Array[][] = [];
    for (const wasm of [false, true]) {
      setWasmKernels(wasm);
      const channels = source.map((c) => c.slice());
      const { settings, targetLufs } = PRESETS.loud;
      await renderMaster(channels, RATE, { settings, targetLufs, tone: { preset: 'loud' } });
      outputs.push(channels);
    }
    expect(sameBits(outputs[0]!, outputs[1]!)).toBe(0);
  });
});
