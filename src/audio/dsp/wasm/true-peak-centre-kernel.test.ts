import { afterEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/mastering';
import { decodeTake } from '../genre-takes.test-helper';
import { LIMITER_BLOCK } from '../limiter';
import { BlockAnalysis, BlockTruePeaks, truePeakStorage } from '../loudness-target';
import { solveLoudness } from '../mastering-chain';
import { musicLike } from '../test-signals';
import { HISTORY, TRUE_PEAK_DELAY, TRUE_PEAK_TAP_L1 } from '../true-peak';
import { centrePeak, truePeakBound } from '../true-peak-centre';
import { setWasmKernels } from './simd-kernels';
import { truePeakCentreKernel } from './true-peak-centre-kernel';

const RATE = 44100;
afterEach(() => setWasmKernels(true));

const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Full-scale alternation, noise with NaN and infinities, near-Nyquist sines, clicks, silence. */
const hostile = (n: number): Float32Array[] => {
  const r = random(11);
  return [
    Float32Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1)),
    Float32Array.from({ length: n }, () => r() * 2 - 1),
    Float32Array.from({ length: n }, (_, i) => Math.sin(i * Math.PI * 0.97 + 0.3) * 3),
    Float32Array.from({ length: n }, (_, i) => (i % 37 === 0 ? 1 : i % 41 === 0 ? -1 : 0)),
    Float32Array.from({ length: n }, (_, i) => (i === 500 ? Number.NaN : i === 900 ? Infinity : r() - 0.5)),
    new Float32Array(n),
  ];
};

/** Bit patterns, so -0 and NaN compare exactly. */
const bits = (a: Float64Array) => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length));

/** centreOfBlock's value in JavaScript: the block's 17 output points, samples outside the track read as 0. */
const jsCentre = (data: Float32Array, b: number): number => {
  const from = b * LIMITER_BLOCK - 1 + TRUE_PEAK_DELAY;
  const x = new Float32Array(HISTORY + LIMITER_BLOCK + 1);
  for (let k = 0; k < x.length; k++) {
    const i = from - HISTORY + k;
    x[k] = i >= 0 && i < data.length ? data[i]! : 0;
  }
  return centrePeak(x, HISTORY, HISTORY + LIMITER_BLOCK + 1);
};

describe('true-peak centre kernel (WebAssembly SIMD)', () => {
  it('gives centrePeak bit for bit, block by block, at the ends and in runs of every length', () => {
    const kernel = truePeakCentreKernel();
    expect(kernel).not.toBeNull();
    const signals = [
      ...hostile(LIMITER_BLOCK * 300 + 7),
      ...musicLike({ seconds: 3, sampleRate: RATE, seed: 2 }),
    ];
    for (const data of signals) {
      const blocks = Math.ceil(data.length / LIMITER_BLOCK);
      const expected = Float64Array.from({ length: blocks }, (_, b) => jsCentre(data, b));
      // Runs of 1, 3, 64 and the kernel's most, starting anywhere (the ends included).
      for (const run of [1, 3, 64, 1024]) {
        const got = new Float64Array(blocks);
        for (let b = 0; b < blocks; b += run)
          kernel!.centreBlocks(data, data.length, b, Math.min(run, blocks - b), got, b);
        expect(bits(got)).toEqual(bits(expected));
      }
    }
  });

  const storageOf = (channels: Float32Array[], sampleMax: Float64Array, gains: number[], wasm: boolean) => {
    setWasmKernels(wasm);
    const storage = truePeakStorage(sampleMax.length);
    const peaks = new BlockTruePeaks(channels, sampleMax, 0.85, storage);
    const states: string[] = [];
    for (const g of gains) {
      peaks.ensure(g);
      states.push(
        `${bits(storage.peaks).join()}|${Array.from(storage.state).join()}|${bits(storage.bound).join()}`,
      );
    }
    setWasmKernels(true);
    return states;
  };

  it('leaves BlockTruePeaks the JavaScript loop storage, gain after gain, one to three channels', async () => {
    const music = musicLike({ seconds: 30, sampleRate: RATE, seed: 4 });
    const real = await decodeTake('/usr/share/games/asc/music/machine_wars.mp3', RATE, '', 30, 20);
    const h = hostile(RATE * 2);
    const sets = [music, [music[0]!], [h[1]!, h[2]!, h[4]!], [h[0]!, h[3]!], ...(real ? [real] : [])];
    for (const channels of sets) {
      const frames = channels[0]!.length;
      const analysis = new BlockAnalysis(RATE, channels.length, frames);
      analysis.push(channels, 0, frames);
      const gains = [-6, 0, 3, 6, 9, 14].map((db) => 10 ** (db / 20));
      expect(storageOf(channels, analysis.sampleMax, gains, true)).toEqual(
        storageOf(channels, analysis.sampleMax, gains, false),
      );
    }
  });

  it('leaves the storage the block-by-block loop leaves, quiet groups passed over included', async () => {
    const real = await decodeTake('/usr/share/games/asc/music/frontiers.mp3', RATE, '', 30, 20);
    const h = hostile(RATE);
    for (const channels of [
      musicLike({ seconds: 20, sampleRate: RATE, seed: 6 }),
      [h[3]!, h[1]!],
      ...(real ? [real] : []),
    ])
      for (const wasm of [true, false]) {
        setWasmKernels(wasm);
        const frames = channels[0]!.length;
        const analysis = new BlockAnalysis(RATE, channels.length, frames);
        analysis.push(channels, 0, frames);
        const sampleMax = analysis.sampleMax;
        const full = new BlockTruePeaks(channels, sampleMax, 0);
        full.ensure(1);
        const threshold = 0.85;
        const storage = truePeakStorage(sampleMax.length);
        const lazy = new BlockTruePeaks(channels, sampleMax, threshold, storage);
        let interpolated = 0;
        const wrong: number[] = [];
        // Each block's centre peak in JavaScript, found once for all the gains.
        const centres = new Float64Array(sampleMax.length).fill(Number.NaN);
        for (const db of [-3, 2, 5, 8, 12]) {
          const limit = threshold / 10 ** (db / 20);
          lazy.ensure(10 ** (db / 20));
          // What the loop before decision 293 leaves, block by block (state 2 once its bound passed a limit).
          for (let b = 0; b < sampleMax.length; b++) {
            let w = sampleMax[b]!;
            if (b > 0 && sampleMax[b - 1]! > w) w = sampleMax[b - 1]!;
            if (b < sampleMax.length - 1 && sampleMax[b + 1]! > w) w = sampleMax[b + 1]!;
            const state = storage.state[b]!;
            // Under the window test now, so under it at every earlier (larger) limit: never looked at.
            if (w * TRUE_PEAK_TAP_L1 <= limit) {
              if (state !== 0) wrong.push(b);
              continue;
            }
            if (Number.isNaN(centres[b]!)) {
              let centre = 0;
              for (const data of channels) centre = Math.max(centre, jsCentre(data, b));
              centres[b] = centre;
            }
            const bound = storage.bound[b]!;
            if (state === 2) interpolated++;
            if (
              state === 0 ||
              (state === 1) === bound > limit ||
              bound !== truePeakBound(centres[b]!, w) ||
              storage.peaks[b] !== (state === 2 ? full.peaks[b] : 0)
            )
              wrong.push(b);
          }
          expect(wrong).toEqual([]);
        }
        setWasmKernels(true);
        expect(interpolated).toBeGreaterThan(0);
      }
  });

  it('solves the same gain and limiter gains as the JavaScript loop', async () => {
    const real = await decodeTake('/usr/share/games/asc/music/time_to_strike.mp3', RATE, '', 30, 30);
    for (const channels of [musicLike({ seconds: 40, sampleRate: RATE, seed: 1 }), ...(real ? [real] : [])]) {
      const frames = channels[0]!.length;
      const analysis = new BlockAnalysis(RATE, 2, frames);
      analysis.push(channels, 0, frames);
      const solve = async (wasm: boolean) => {
        setWasmKernels(wasm);
        const { settings, targetLufs } = PRESETS.balanced;
        const s = await solveLoudness(channels, analysis.energy, analysis.sampleMax, RATE, {
          settings,
          targetLufs,
        });
        setWasmKernels(true);
        return { gainDb: s.gainDb, gains: bits(s.plan.boundaryGains) };
      };
      const on = await solve(true);
      expect(on).toEqual(await solve(false));
      expect(on.gainDb).toBeGreaterThan(0);
    }
  });
});
