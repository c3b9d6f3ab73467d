import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types (the build step that writes the kernels' bytes)
import { assemble } from '../../../../scripts/build-wasm.mjs';
import type { MasteringSettings } from '../../../shared/mastering';
import type { AdaptivePlan } from '../adaptive-plan';
import { decodeTake } from '../genre-takes.test-helper';
import { MasteringProcessor } from '../mastering-processor';
import { TONE_EQ_GRID } from '../tone-eq';
import { restoreWasmKernelsAfterEach, stretchedNoise } from './kernel-signals.test-helper';
import { masteringTail } from './mastering-tail';
import { setWasmKernels } from './simd-kernels';

const RATE = 44100;

restoreWasmKernelsAfterEach();

const signal = (frames: number, seed: number): Float32Array => stretchedNoise(frames, seed, 0.9);

interface Case {
  multiband: boolean;
  bassMonoHz: number;
  bassFromSide: boolean;
  sideEq: boolean;
  stereoWidth: number;
}

const planFor = (c: Case): AdaptivePlan => ({
  toneEqDb: [2, -1, 0.5, 0, -2, 1, 3, -1.5, 2],
  sideEqDb: c.sideEq ? [1, 0, -1, 0, 2, 0, -2, 0, 1] : null,
  eqGrid: TONE_EQ_GRID,
  bassMonoHz: c.bassMonoHz,
  bassFromSide: c.bassFromSide,
  bandDynamics: c.multiband
    ? [
        { rmsDb: -20, peakDb: -6 },
        { rmsDb: -24, peakDb: -8 },
        { rmsDb: -30, peakDb: -12 },
      ]
    : null,
  matched: 'curve',
  toneMatch: 0.5,
  tiltDbPerOctave: 0,
  genre: null,
});

const settingsFor = (c: Case): MasteringSettings => ({
  compression: 70,
  brightness: 70,
  warmth: 35,
  stereoWidth: c.stereoWidth,
  loudness: 50,
});

/**
 * The chain over `input` block by block, as the two-worker render cuts it (`front` then `back` with the
 * bands in a slot of their own) or as one processor (`process`); the kernels on or off.
 */
const render = (input: readonly Float32Array[], c: Case, blocks: number[], wasm: boolean, slot: boolean) => {
  setWasmKernels(wasm);
  const channels = input.map((x) => x.slice());
  const processor = new MasteringProcessor(RATE, channels.length, settingsFor(c), planFor(c));
  const largest = Math.max(1, ...blocks);
  const bands = [0, 1, 2].map(() => channels.map(() => new Float32Array(largest)));
  let at = 0;
  for (const n of blocks) {
    const end = Math.min(at + n, channels[0]!.length);
    if (slot) {
      processor.front(channels, at, end, processor.splitsBands ? bands : undefined);
      processor.back(channels, at, end, processor.splitsBands ? bands : undefined);
    } else processor.process(channels, at, end);
    at = end;
  }
  return channels;
};

/** Bit for bit: the float32 patterns, so a -0 against a +0 would fail too. */
const expectSameBits = (a: readonly Float32Array[], b: readonly Float32Array[]) => {
  expect(a.length).toBe(b.length);
  a.forEach((x, c) => {
    const u = new Uint32Array(x.buffer, x.byteOffset, x.length);
    const v = new Uint32Array(b[c]!.buffer, b[c]!.byteOffset, b[c]!.length);
    const differ = u.findIndex((bits, i) => bits !== v[i]);
    expect(differ).toBe(-1);
  });
};

const CASE = fc.record({
  multiband: fc.boolean(),
  bassMonoHz: fc.constantFrom(0, 90, 160),
  bassFromSide: fc.boolean(),
  sideEq: fc.boolean(),
  stereoWidth: fc.constantFrom(50, 80, 20, 0),
});

describe('the mastering back end in one kernel (decision 315)', () => {
  it('is the assembly of its .wat source, and runs here (Node has WebAssembly SIMD)', async () => {
    const wat = 'src/audio/dsp/wasm/mastering-tail.wat';
    expect(await assemble(wat)).toBe(fs.readFileSync(wat.replace(/\.wat$/, '.wasm.ts'), 'utf8'));
    expect(masteringTail()).not.toBeNull();
    setWasmKernels(false);
    expect(masteringTail()).toBeNull();
  });

  it('gives the JavaScript chain its samples, bit for bit: bands or one, mono bass or not, any blocks', () => {
    fc.assert(
      fc.property(
        CASE,
        fc.array(fc.integer({ min: 0, max: 9000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.constantFrom(1, 2),
        fc.boolean(),
        (c, blocks, seed, count, slot) => {
          const frames = blocks.reduce((a, b) => a + b, 0);
          const input = Array.from({ length: count }, (_, k) => signal(frames, seed + k));
          expectSameBits(render(input, c, blocks, true, slot), render(input, c, blocks, false, slot));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('sums the compressed bands where the band kernel left them: the slot keeps the split (decision 321)', () => {
    const c: Case = { multiband: true, bassMonoHz: 120, bassFromSide: false, sideEq: false, stereoWidth: 65 };
    const input = [signal(4096 * 3, 7), signal(4096 * 3, 8)];
    setWasmKernels(true);
    const channels = input.map((x) => x.slice());
    const processor = new MasteringProcessor(RATE, 2, settingsFor(c), planFor(c));
    const bands = [0, 1, 2].map(() => [new Float32Array(4096), new Float32Array(4096)]);
    for (let at = 0; at < 4096 * 3; at += 4096) {
      processor.front(channels, at, at + 4096, bands);
      const split = bands.map((b) => b.map((x) => x.slice()));
      processor.back(channels, at, at + 4096, bands);
      // One chunk: compress3 left its output in the shared memory and did not write the slot.
      expectSameBits(bands.flat(), split.flat());
    }
    expectSameBits(channels, render(input, c, [4096, 4096, 4096], false, true));
  });

  it('on real music too (asc-music), in the render block size, every path', async () => {
    const music = await decodeTake('/usr/share/games/asc/music/machine_wars.mp3', RATE, '', 20, 12);
    if (!music) return; // asc-music or ffmpeg is not installed here
    const blocks = Array.from({ length: Math.ceil(music[0]!.length / 4096) }, () => 4096);
    const cases: Case[] = [
      { multiband: true, bassMonoHz: 120, bassFromSide: false, sideEq: false, stereoWidth: 65 },
      { multiband: true, bassMonoHz: 120, bassFromSide: true, sideEq: false, stereoWidth: 50 },
      { multiband: false, bassMonoHz: 120, bassFromSide: false, sideEq: false, stereoWidth: 40 },
      { multiband: false, bassMonoHz: 0, bassFromSide: false, sideEq: false, stereoWidth: 70 },
      { multiband: true, bassMonoHz: 0, bassFromSide: false, sideEq: false, stereoWidth: 50 },
    ];
    for (const c of cases)
      for (const input of [music, [music[0]!]]) {
        const js = render(input, c, blocks, false, true);
        expectSameBits(render(input, c, blocks, true, true), js);
        // The chain changed the music: the comparison is not of two untouched copies.
        expect(js[0]!.some((v, i) => v !== input[0]![i])).toBe(true);
      }
  }, 60_000);
});
