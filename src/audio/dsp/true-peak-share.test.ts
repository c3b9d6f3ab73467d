import { describe, expect, it } from 'vitest';
import { HandoverStopped } from './block-handover';
import { BlockTruePeaks, truePeakStorage } from './loudness-target';
import { musicLike } from './test-signals';
import { closePeakShare, createPeakShareMemory, PeakShare } from './true-peak-share';

describe('the loudness solve shares its block true peaks (decision 317)', () => {
  it('an ask covers every block once, in chunks, and the helper takes part in the asks made after it came', () => {
    const blocks = 10_000;
    const memory = createPeakShareMemory();
    const asker = new PeakShare(memory, blocks);
    const covered = new Uint8Array(blocks);
    const gains: number[] = [];
    asker.run(2, (gain, from, to) => {
      gains.push(gain);
      for (let b = from; b < to; b++) covered[b]!++;
    });
    expect(covered.every((n) => n === 1)).toBe(true);
    // Chunks of 2048 blocks: the ask was cut in five.
    expect(gains).toEqual([2, 2, 2, 2, 2]);
    asker.run(3, () => {});
    // A helper that comes after the asks were finished finds nothing left of them, runs its idle task once
    // (after the second ask) and returns when the share is closed.
    let idle = 0;
    let helped = 0;
    asker.close();
    new PeakShare(memory, blocks).serve(
      () => helped++,
      () => helped++,
      () => idle++,
    );
    expect([helped, idle]).toEqual([0, 1]);
  });

  it('a share closed during an ask (a cancel, or the other worker failed) stops the asker', () => {
    const memory = createPeakShareMemory();
    const asker = new PeakShare(memory, 5000);
    const done: number[] = [];
    expect(() =>
      asker.run(1, (_gain, from) => {
        done.push(from);
        if (from === 0) closePeakShare(memory);
      }),
    ).toThrow(HandoverStopped);
    // No chunk is claimed after the close.
    expect(done).toEqual([0]);
  });

  it('true peaks found chunk by chunk at rising gains are those found over all blocks at once', () => {
    const channels = musicLike({ seconds: 6, seed: 3 }).map((c) => c.map((v) => v * 2.5));
    const sampleMax = new Float64Array(Math.ceil(channels[0]!.length / 16) + 1);
    for (const c of channels)
      for (let i = 0; i < c.length; i++) sampleMax[i >> 4] = Math.max(sampleMax[i >> 4]!, Math.abs(c[i]!));
    const alone = new BlockTruePeaks(channels, sampleMax, 0.88);
    const memory = createPeakShareMemory();
    const shared = new BlockTruePeaks(
      channels,
      sampleMax,
      0.88,
      truePeakStorage(sampleMax.length, true),
      0,
      new PeakShare(memory, sampleMax.length),
    );
    for (const gain of [0.5, 0.8, 1.2]) {
      alone.ensure(gain);
      shared.ensure(gain);
      expect(Array.from(shared.peaks)).toEqual(Array.from(alone.peaks));
    }
    expect(alone.peaks.some((p) => p > 0)).toBe(true);
  });
});
