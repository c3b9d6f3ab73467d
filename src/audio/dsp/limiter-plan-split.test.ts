import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import {
  createPlanSplitMemory,
  planLaterPart,
  planWithLaterPart,
  resetPlanSplit,
} from './limiter-plan-split';
import { BlockTruePeaks, planLimiter } from './loudness-target';
import { limiterOptionsFor } from './mastering-chain';
import { musicLike } from './test-signals';

const RATE = 44100;

/** Block true peaks of loud music, as the loudness solve plans on them. */
const musicPeaks = (seconds: number, level: number) => {
  const channels = musicLike({ seconds, seed: 5 }).map((c) => c.map((v) => v * level));
  const sampleMax = new Float64Array(Math.ceil(channels[0]!.length / 16) + 1);
  for (const c of channels)
    for (let i = 0; i < c.length; i++) sampleMax[i >> 4] = Math.max(sampleMax[i >> 4]!, Math.abs(c[i]!));
  const peaks = new BlockTruePeaks(channels, sampleMax, 0.5);
  peaks.ensure(1);
  return { peaks: peaks.peaks, blocks: Math.ceil(channels[0]!.length / 16) };
};

describe('the limiter plan cut in time between two workers (decision 318)', () => {
  const options = limiterOptionsFor(-1, PRESETS.balanced.settings);

  for (const [seconds, level] of [
    [60, 4],
    [60, 1.5],
    [2, 4],
  ] as const) {
    it(`gives planLimiter's gains exactly: ${seconds} s at ${level}x`, () => {
      const { peaks, blocks } = musicPeaks(seconds, level);
      const memory = createPlanSplitMemory(peaks.length, RATE, options)!;
      let previous: Float64Array | undefined;
      for (const gain of [1, 1.4]) {
        const whole = planLimiter(peaks, blocks, gain, RATE, options);
        resetPlanSplit(memory);
        planLaterPart(peaks, blocks, gain, RATE, options, memory);
        // The second gain's plan written over the first's gains (as the solve's tries do).
        const split = planWithLaterPart(peaks, blocks, gain, RATE, options, memory, () => {}, previous);
        expect(Array.from(split.boundaryGains)).toEqual(Array.from(whole.boundaryGains));
        if (previous) expect(split.boundaryGains).toBe(previous);
        previous = split.boundaryGains;
        // Made on shared memory: the final pass of both workers reads them without a copy.
        expect(split.boundaryGains.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect([split.minGainDb, split.compressorMinGainDb]).toEqual([
          whole.minGainDb,
          whole.compressorMinGainDb,
        ]);
        // Without the helper's part (it never began): the asker plans alone, the same gains.
        resetPlanSplit(memory);
        const alone = planWithLaterPart(peaks, blocks, gain, RATE, options, memory, () => {});
        expect(Array.from(alone.boundaryGains)).toEqual(Array.from(whole.boundaryGains));
        expect(alone.minGainDb).toBe(whole.minGainDb);
      }
    });
  }

  it("takes the helper's gains from the first checkpoint whose state is the asker's", () => {
    const { peaks, blocks } = musicPeaks(60, 4);
    const memory = createPlanSplitMemory(peaks.length, RATE, options)!;
    resetPlanSplit(memory);
    planLaterPart(peaks, blocks, 1, RATE, options, memory);
    // The helper's gains marked after it finished: the asker's plan now carries the mark from a checkpoint on.
    const theirs = new Float64Array(memory.gains);
    theirs.fill(0.5, blocks - 10, blocks);
    const split = planWithLaterPart(peaks, blocks, 1, RATE, options, memory, () => {});
    expect(Array.from(split.boundaryGains.subarray(blocks - 10, blocks))).toEqual(new Array(10).fill(0.5));
  });

  it('is not offered with a peak compressor stage (its rings and statistics are not cut)', () => {
    expect(createPlanSplitMemory(1000, RATE, limiterOptionsFor(-1, PRESETS.loud.settings))).toBeNull();
  });
});
