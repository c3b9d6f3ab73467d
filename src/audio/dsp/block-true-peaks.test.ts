import { describe, expect, it } from 'vitest';
import { LIMITER_BLOCK } from './limiter';
import { BlockAnalysis, BlockTruePeaks } from './loudness-target';
import { musicLike } from './test-signals';
import { HISTORY, interpolatePeaks } from './true-peak';
import { centrePeak, truePeakBound } from './true-peak-centre';

const RATE = 44100;

/** A deterministic generator (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Signals that stress the bound: full-scale alternation, noise, near-Nyquist and clipped sines, impulses. */
const hostile = (n: number): Float32Array[] => {
  const r = random(7);
  return [
    Float32Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1)),
    Float32Array.from({ length: n }, () => r() * 2 - 1),
    Float32Array.from({ length: n }, (_, i) => Math.sin(i * Math.PI * 0.97 + 0.3)),
    Float32Array.from({ length: n }, (_, i) => Math.max(-0.5, Math.min(0.5, Math.sin(i * 2.9)))),
    Float32Array.from({ length: n }, (_, i) => (i % 37 === 0 ? 1 : i % 41 === 0 ? -1 : 0)),
    Float32Array.from({ length: n }, () => (r() < 0.5 ? -1 : 1) * (r() < 0.9 ? 1 : 0.1)),
  ];
};

describe('centre-tap bound of the true-peak detector', () => {
  it('is never below the full detector, output by output, on hostile signals', () => {
    for (const x of hostile(4096)) {
      const full = new Float64Array(x.length);
      interpolatePeaks(x, HISTORY, x.length, full, 0);
      for (let i = HISTORY + 1; i < x.length; i++) {
        // The refinement at input i looks back one input: bound inputs i - 1 and i together.
        let windowMax = 0;
        for (let k = i - HISTORY - 1; k <= i; k++) windowMax = Math.max(windowMax, Math.abs(x[k]!));
        const bound = truePeakBound(centrePeak(x, i - 1, i + 1), windowMax);
        expect(full[i - HISTORY]!).toBeLessThanOrEqual(bound * (1 + 1e-12));
      }
    }
  });
});

describe('BlockTruePeaks', () => {
  const reference = (channels: Float32Array[], sampleMax: Float64Array) => {
    const all = new BlockTruePeaks(channels, sampleMax, 0);
    all.ensure(1);
    return all.peaks;
  };

  it('gives the planner exactly what full detection gives it, gain after gain', () => {
    const channels = [...musicLike({ seconds: 20, sampleRate: RATE, seed: 3 }), ...hostile(RATE * 2)];
    for (const pair of [channels.slice(0, 2), channels.slice(2, 4), channels.slice(4, 6)]) {
      const frames = Math.min(...pair.map((c) => c.length));
      const stereo = pair.map((c) => c.subarray(0, frames));
      const analysis = new BlockAnalysis(RATE, 2, frames);
      analysis.push(stereo, 0, frames);
      const full = reference(stereo, analysis.sampleMax);
      const threshold = 0.85;
      const lazy = new BlockTruePeaks(stereo, analysis.sampleMax, threshold);
      for (const gainDb of [-6, 0, 3, 6, 9, 14]) {
        const g = 10 ** (gainDb / 20);
        lazy.ensure(g);
        let exact = 0;
        const wrong: number[] = [];
        for (let b = 0; b < full.length; b++) {
          const over = full[b]! * g > threshold;
          if (over) exact++;
          if (over ? lazy.peaks[b] !== full[b] : lazy.peaks[b]! * g > threshold) wrong.push(b);
        }
        expect(wrong).toEqual([]);
        if (gainDb >= 9) expect(exact).toBeGreaterThan(0);
      }
    }
  });

  it('lines block b up with the frames of block b', () => {
    // One impulse in block 10: the detector's values around it belong to blocks 9 to 11, none elsewhere.
    const x = new Float32Array(LIMITER_BLOCK * 40);
    x[LIMITER_BLOCK * 10 + 5] = 1;
    const analysis = new BlockAnalysis(RATE, 1, x.length);
    analysis.push([x], 0, x.length);
    const lazy = new BlockTruePeaks([x], analysis.sampleMax, 0.5);
    lazy.ensure(1);
    expect(lazy.peaks[10]).toBeGreaterThanOrEqual(1);
    for (let b = 0; b < 40; b++) if (b < 9 || b > 11) expect(lazy.peaks[b]).toBe(0);
  });
});
