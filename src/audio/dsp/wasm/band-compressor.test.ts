import fs from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import { type GainTrace, gainTraceFor } from '../compressor';
import { DynamicsStats } from '../dynamics-stats';
import { decodeTake } from '../genre-takes.test-helper';
import { MultibandCompressor, multibandParamsFor } from '../multiband-compressor';
import { bandCompressorKernel } from './band-compressor';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;

afterEach(() => {
  setWasmKernels(true);
});

/** Noise with loud, quiet and silent stretches (the detector decays to its flush, the gain moves). */
const signal = (frames: number, seed: number): Float32Array => {
  let s = seed;
  return Float32Array.from({ length: frames }, (_, i) => {
    s = (s * 1103515245 + 12345) >>> 0;
    const level = i % 30000 < 12000 ? 0.9 : i % 30000 < 20000 ? 0.02 : i % 30000 < 25000 ? 1e-30 : 0;
    return (s / 2 ** 31 - 1) * level;
  });
};

const BANDS = [
  { rmsDb: -20, peakDb: -6 },
  { rmsDb: -24, peakDb: -8 },
  { rmsDb: -30, peakDb: -12 },
];

/**
 * The multiband compressor over `input` block by block: split, then the bands [0, front) compressed, then
 * the rest and the sum (as the two-worker render cuts it); gain traces recorded (or replayed from
 * `replay`), or none (`traced` false: the kernel then answers the points under the quiet line itself,
 * decision 322), and statistics kept. The kernels on or off.
 */
const run = (
  input: readonly Float32Array[],
  compression: number,
  blocks: number[],
  front: number,
  wasm: boolean,
  replay: GainTrace[] | null,
  traced = true,
) => {
  setWasmKernels(wasm);
  const channels = input.map((x) => x.slice());
  const frames = channels[0]!.length;
  const multiband = new MultibandCompressor(RATE, channels.length, multibandParamsFor(compression, BANDS));
  const stats = [new DynamicsStats(), new DynamicsStats(), new DynamicsStats()];
  multiband.attachStats(stats);
  const traces = replay
    ? replay.map((t): GainTrace => ({ mode: 'replay', targets: t.targets }))
    : [0, 1, 2].map(() => gainTraceFor(frames));
  multiband.setTraces(traced ? traces : null);
  let at = 0;
  for (const n of blocks) {
    const end = Math.min(at + n, frames);
    multiband.split(channels, at, end);
    multiband.compress(multiband.bands, 0, front, end - at);
    multiband.combine(multiband.bands, channels, at, end, front);
    at = end;
  }
  return { channels, traces, stats: stats.map((s) => s.summary()) };
};

const bits = (xs: readonly Float32Array[]) => xs.map((x) => Array.from(new Uint32Array(x.buffer)));

const expectSame = (a: ReturnType<typeof run>, b: ReturnType<typeof run>) => {
  expect(bits(a.channels)).toEqual(bits(b.channels));
  expect(a.traces.map((t) => Array.from(t.targets))).toEqual(b.traces.map((t) => Array.from(t.targets)));
  expect(a.stats).toEqual(b.stats);
};

describe('two bands of the multiband compressor in one kernel (decision 316)', () => {
  it('is the assembly of its .wat source, and runs here (Node has WebAssembly SIMD)', async () => {
    const wat = 'src/audio/dsp/wasm/band-compressor.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    expect(bandCompressorKernel()).not.toBeNull();
    setWasmKernels(false);
    expect(bandCompressorKernel()).toBeNull();
  });

  it('gives the JavaScript its samples, gain curve and statistics bit for bit, any blocks and split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.constantFrom(0, 1, 2, 3),
        fc.constantFrom(1, 2),
        fc.constantFrom(0, 20, 45, 100),
        (blocks, seed, front, count, compression) => {
          const frames = blocks.reduce((a, b) => a + b, 0);
          const input = Array.from({ length: count }, (_, k) => signal(frames, seed + k));
          const js = run(input, compression, blocks, front, false, null);
          expectSame(run(input, compression, blocks, front, true, null), js);
          // Untraced (a plain master): the same samples and statistics (the traces stay all 1 on both).
          expectSame(
            run(input, compression, blocks, front, true, null, false),
            run(input, compression, blocks, front, false, null, false),
          );
          // A replayed curve (a version of the mix, decision 150) on another signal: the same on both.
          const other = input.map((x) => x.map((v) => v * 0.5));
          expectSame(
            run(other, compression, blocks, front, true, js.traces),
            run(other, compression, blocks, front, false, js.traces),
          );
        },
      ),
      { numRuns: 50 },
    );
  });

  it('on real music too (asc-music), in the render block size', async () => {
    const music = await decodeTake('/usr/share/games/asc/music/time_to_strike.mp3', RATE, '', 30, 15);
    if (!music) return; // asc-music or ffmpeg is not installed here
    const blocks = Array.from({ length: Math.ceil(music[0]!.length / 4096) }, () => 4096);
    for (const front of [0, 1])
      for (const compression of [45, 75]) {
        const js = run(music, compression, blocks, front, false, null);
        expectSame(run(music, compression, blocks, front, true, null), js);
        const untraced = run(music, compression, blocks, front, false, null, false);
        expectSame(run(music, compression, blocks, front, true, null, false), untraced);
        // The traced run's samples are the untraced run's: tracing does not change the compression.
        expect(bits(untraced.channels)).toEqual(bits(js.channels));
        // The bands were compressed: the comparison is not of untouched copies.
        expect(js.stats.some((s) => s.maxDb > 0.5)).toBe(true);
      }
  }, 60_000);
});
