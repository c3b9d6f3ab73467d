/**
 * The limiter's fast paths (issue 26: unity gain copied, block boundaries by arithmetic, no detection pass
 * where nothing can reach the threshold) give the very samples and frame gains of the loop they replaced.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import { type LimiterOptions, TruePeakLimiter } from './limiter';
import { ReferenceTruePeakLimiter } from './limiter-reference.test-helper';
import { limiterOptionsFor } from './mastering-chain';
import { musicLike } from './test-signals';

const RATE = 44100;

/** Quiet passages, loud bursts, a step over the ceiling, silence and clicks: every path in one signal. */
const material = (seconds: number, seed: number): Float32Array[] =>
  musicLike({ seconds, sampleRate: RATE, seed }).map((ch) => {
    const out = new Float32Array(ch.length);
    for (let i = 0; i < ch.length; i++) {
      const section = Math.floor(i / 20_000) % 7;
      const gain = [0.05, 1, 3, 0, 0.4, 0.05, 0.2][section]!;
      out[i] = ch[i]! * gain;
    }
    // Lone clicks at every offset against the 16-frame runs: detection must cover each one's frames.
    for (let i = 1013; i < ch.length / 3; i += 4_099) out[i] = i % 2 ? 1.3 : -1.2;
    out[Math.floor(ch.length / 3)] = 1.8;
    out[Math.floor(ch.length / 3) + 1] = -1.8;
    return out;
  });

/** Samples whose bit patterns differ (-0 against 0 counts): tolerance 0. */
const differingBits = (a: Float32Array, b: Float32Array): number => {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let count = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (x[i] !== y[i]) count++;
  return count;
};

const runBoth = (channels: Float32Array[], options: LimiterOptions, inputGain: number, blocks: number[]) => {
  const fast = new TruePeakLimiter(RATE, channels.length, options);
  const reference = new ReferenceTruePeakLimiter(RATE, channels.length, options);
  const length = channels[0]!.length;
  const traces = [new Float32Array(length), new Float32Array(length)];
  const outputs = [
    channels.map(() => new Float32Array(length)),
    channels.map(() => new Float32Array(length)),
  ];
  [fast, reference].forEach((limiter, which) => {
    limiter.inputGain = inputGain;
    limiter.frameGains = traces[which]!;
    // Uneven process() calls, so chunks start anywhere against the blocks and the ring.
    for (let start = 0, b = 0; start < length; b++) {
      const end = Math.min(length, start + blocks[b % blocks.length]!);
      limiter.process(channels, outputs[which]!, start, end);
      start = end;
    }
  });
  return { fast: outputs[0]!, reference: outputs[1]!, fastGains: traces[0]!, referenceGains: traces[1]! };
};

describe('true-peak limiter fast paths', () => {
  const cases: [string, LimiterOptions][] = [
    ['the mixdown limiter', { ceilingDb: -1 }],
    ['Loud (peak compressor first)', limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, PRESETS.loud.settings)],
    ['Balanced', limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, PRESETS.balanced.settings)],
  ];
  for (const [name, options] of cases)
    for (const inputGain of [1, 1.7])
      it(`${name}, input gain ${inputGain}: the same samples and frame gains as the reference loop`, () => {
        const channels = material(5, 3);
        const { fast, reference, fastGains, referenceGains } = runBoth(
          channels,
          options,
          inputGain,
          [65_536, 128, 1000, 3, 4096, 300],
        );
        for (let c = 0; c < channels.length; c++) expect(differingBits(fast[c]!, reference[c]!)).toBe(0);
        expect(differingBits(fastGains, referenceGains)).toBe(0);
        // Both the unity copy and the limiting path ran.
        expect(referenceGains.some((g) => g < 0.99)).toBe(true);
        expect(referenceGains.filter((g) => g === 1).length).toBeGreaterThan(referenceGains.length / 10);
      });
});
