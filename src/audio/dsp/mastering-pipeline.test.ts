import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/mastering';
import { BlockHandover, createHandoverMemory, HandoverStopped, RING_SLOTS } from './block-handover';
import { mergeCompressorDynamics } from './dynamics-stats';
import { BlockTruePeaks, truePeakStorage } from './loudness-target';
import {
  applyLimiterPlan,
  BLOCK,
  loudnessStart,
  type MasterRenderOptions,
  renderMaster,
  solveLoudness,
} from './mastering-chain';
import { ChainBack, ChainFront, type ChainHalfSetup } from './mastering-pipeline';
import { FRONT_BANDS } from './multiband-compressor';
import { musicLike } from './test-signals';
import { analyseTrack } from './track-analysis';

const RATE = 44100;
const immediate = () => Promise.resolve();

/**
 * The two-worker schedule in one thread: the front runs as far ahead as the ring allows (RING_SLOTS - 1
 * blocks), so every slot is reused many times; then the loudness solve (its first block true peaks in two
 * halves) and the final pass split in two.
 */
const pipelined = async (source: Float32Array[], options: MasterRenderOptions) => {
  const channels = source.map((c) => c.slice());
  const frames = channels[0]!.length;
  const analysis = analyseTrack(channels, RATE);
  const setup: ChainHalfSetup = { sampleRate: RATE, channels: channels.length, frames, options, analysis };
  const handover = new BlockHandover(createHandoverMemory(channels.length, BLOCK, true));
  const front = new ChainFront(setup);
  const back = new ChainBack(setup);
  const blocks = Math.ceil(frames / BLOCK);
  let backAt = 0;
  for (let k = 0; k < blocks; k++) {
    const start = k * BLOCK;
    front.block(channels, start, Math.min(frames, start + BLOCK), handover.slot(start));
    // The back catches up only when the ring is full (and at the end).
    for (; backAt <= k - (RING_SLOTS - 1) || (k === blocks - 1 && backAt < blocks); backAt++) {
      const s = backAt * BLOCK;
      back.block(channels, s, Math.min(frames, s + BLOCK), handover.slot(s));
    }
  }
  // The back measures on shared memory, handed to the solve as it is (no copy at the chain's end).
  const { energy, sampleMax } = back.measurement;
  expect(energy).toBe(back.analysis.energy);
  expect(sampleMax.buffer).toBeInstanceOf(SharedArrayBuffer);
  // The solve's block true peaks at its first gain in two halves (the back half first: order must not matter).
  const head = {
    start: loudnessStart(energy, frames, RATE, options),
    storage: truePeakStorage(sampleMax.length),
  };
  const peakBlocks = sampleMax.length;
  const firstGain = 10 ** (head.start.gainDb / 20);
  const halfOf = () => new BlockTruePeaks(channels, sampleMax, head.start.threshold, head.storage);
  halfOf().ensureRange(firstGain, peakBlocks >> 1, peakBlocks);
  halfOf().ensureRange(firstGain, 0, peakBlocks >> 1);
  const solution = await solveLoudness(
    channels,
    energy,
    sampleMax,
    RATE,
    options,
    { yieldFn: immediate },
    head,
  );
  const half = Math.floor(blocks / 2) * BLOCK;
  const gains = { gainDb: solution.gainDb, boundaryGains: solution.plan.boundaryGains };
  await applyLimiterPlan(channels, gains, half, frames, { yieldFn: immediate });
  await applyLimiterPlan(channels, gains, 0, half, { yieldFn: immediate });
  const dynamics = mergeCompressorDynamics(front.stats.compressors(), back.stats.compressors(), FRONT_BANDS);
  return { channels, gainDb: solution.gainDb, dynamics };
};

const differing = (a: Float32Array[], b: Float32Array[]) => {
  let n = 0;
  for (let c = 0; c < a.length; c++) for (let i = 0; i < a[c]!.length; i++) if (a[c]![i] !== b[c]![i]) n++;
  return n;
};

describe('two-worker render, halves run as a pipeline (decision 141)', () => {
  const cases: [string, MasterRenderOptions, number][] = [
    [
      'adaptive Balanced (multiband, bands in the ring)',
      { ...PRESETS.balanced, tone: { preset: 'balanced' } },
      2,
    ],
    ['adaptive Loud', { ...PRESETS.loud, tone: { preset: 'loud' } }, 2],
    ['spec chain Clean (single-band compressor, channels only)', { ...PRESETS.clean }, 2],
    ['adaptive Balanced, mono', { ...PRESETS.balanced, tone: { preset: 'balanced' } }, 1],
  ];
  for (const [name, options, count] of cases) {
    it(`${name}: the same bytes as the one-worker render`, async () => {
      // 20.3 s: the last block is a partial one.
      const source = musicLike({ seconds: 20.3, seed: 7 }).slice(0, count);
      const single = source.map((c) => c.slice());
      const report = await renderMaster(single, RATE, options, { yieldFn: immediate });
      const pair = await pipelined(source, options);
      expect(pair.gainDb).toBe(report.gainDb);
      expect(differing(pair.channels, single)).toBe(0);
      // Each compressor's statistics come from the half it ran in (the low band's from the front).
      const { compressor, bands } = report.dynamics;
      expect(pair.dynamics).toEqual({ compressor, bands });
    });
  }

  it('a stop wakes a waiting side with an AbortError instead of leaving it blocked', () => {
    const memory = createHandoverMemory(2, BLOCK, true);
    const back = new BlockHandover(memory);
    new BlockHandover(memory).stop();
    expect(() => back.waitForBlock(BLOCK)).toThrow(HandoverStopped);
    expect(() => back.waitForBlock(BLOCK)).toThrow(/stopped/);
  });

  it('the front waits for input only when it is streamed in, and up to the frames copied so far', () => {
    const memory = createHandoverMemory(2, BLOCK, true);
    const front = new BlockHandover(memory);
    // Not streamed: the channels were all there before the render.
    expect(() => front.waitForInput(100 * BLOCK)).not.toThrow();
    const page = new BlockHandover(memory);
    page.streamInput();
    page.inputCopied(2 * BLOCK);
    expect(() => front.waitForInput(2 * BLOCK)).not.toThrow();
    // Past what was copied, a stop (a cancel, or the copy failing) wakes it with an AbortError.
    page.stop();
    expect(() => front.waitForInput(3 * BLOCK)).toThrow(HandoverStopped);
  });
});
