import fs from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { DynamicBand } from '../vocal/dynamic-band';
import { dynamicBandKernel } from './dynamic-band-kernel';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;

afterEach(() => {
  setWasmKernels(true);
});

/** Bursts of a tone in the band and of noise over silence: the band cuts, releases and rests. */
const signal = (frames: number, seed: number, hz: number): Float32Array => {
  let s = seed;
  return Float32Array.from({ length: frames }, (_, i) => {
    s = (s * 1103515245 + 12345) >>> 0;
    const burst = i % 9000 < 4000 ? 0.5 : i % 9000 < 6000 ? 0.02 : 0;
    return burst * (Math.sin((2 * Math.PI * hz * i) / RATE) + 0.3 * (s / 2 ** 31 - 1));
  });
};

describe('the dynamic band kernel (decision 313)', () => {
  it('is the assembly of its .wat source, and runs here', async () => {
    const wat = 'src/audio/dsp/wasm/dynamic-band.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    expect(dynamicBandKernel()).not.toBeNull();
    setWasmKernels(false);
    expect(dynamicBandKernel()).toBeNull();
  });

  it('cuts as the JavaScript loop does, bit for bit: any band, calls of any length, the report too', () => {
    fc.assert(
      fc.property(
        fc.record({
          centreHz: fc.double({ min: 1000, max: 12000, noNaN: true }),
          q: fc.double({ min: 0.7, max: 3, noNaN: true }),
          thresholdDb: fc.double({ min: -60, max: -10, noNaN: true }),
          slope: fc.constantFrom(0, 0.005, 0.5, 0.75, 1),
          maxCutDb: fc.double({ min: 0.5, max: 12, noNaN: true }),
        }),
        fc.array(fc.integer({ min: 0, max: 20000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (params, calls, seed) => {
          const frames = calls.reduce((a, b) => a + b, 0);
          const input = signal(frames, seed, params.centreHz);
          const run = (wasm: boolean) => {
            setWasmKernels(wasm);
            const band = new DynamicBand(RATE, params);
            const x = input.slice();
            let at = 0;
            for (const n of calls) {
              band.process(x, at, at + n);
              at += n;
            }
            return { x, report: [band.maxCutDb, band.meanActiveCutDb, band.activeShare] };
          };
          const js = run(false);
          const wasm = run(true);
          let differing = 0;
          for (let i = 0; i < frames; i++) if (!Object.is(js.x[i], wasm.x[i])) differing++;
          expect(differing).toBe(0);
          expect(wasm.report).toEqual(js.report);
        },
      ),
      { numRuns: 40 },
    );
  });
});
