/**
 * Shared by the mastering tests: the live (AudioWorklet) path run over a whole track, and a sectioned test
 * signal with a known loudness range.
 */
import { type MasteringSettings, TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import type { AdaptivePlan } from './adaptive-plan';
import { TruePeakLimiter } from './limiter';
import { limiterOptionsFor } from './mastering-chain';
import { MasteringProcessor } from './mastering-processor';
import { shapedNoise } from './test-signals';
import { targetCurveDb } from './tonal-target';

/**
 * The worklet's path: the processor (given the render's plan, if any), then the streaming limiter with the
 * render's gain, in 128-frame quanta, in place. Returns the largest sample difference from `offline`.
 */
export const worstLiveDeviation = (
  source: readonly Float32Array[],
  offline: readonly Float32Array[],
  sampleRate: number,
  settings: MasteringSettings,
  gainDb: number,
  plan: AdaptivePlan | null = null,
): number => {
  const processor = new MasteringProcessor(sampleRate, 2, settings);
  if (plan) processor.setAdaptive(plan);
  // The worklet must use the same limiter timing as the render (limiter scaled by loudness).
  const limiter = new TruePeakLimiter(sampleRate, 2, limiterOptionsFor(TRUE_PEAK_CEILING_DBTP, settings));
  limiter.inputGain = 10 ** (gainDb / 20);
  const frames = source[0]!.length;
  const total = frames + limiter.latency;
  const live = [new Float32Array(total), new Float32Array(total)];
  live[0]!.set(source[0]!);
  live[1]!.set(source[1]!);
  for (let i = 0; i < total; i += 128) {
    const end = Math.min(total, i + 128);
    processor.process(live, i, Math.min(end, frames));
    limiter.process(live, live, i, end);
  }
  let worst = 0;
  for (let c = 0; c < 2; c++) {
    for (let i = 0; i < frames; i++)
      worst = Math.max(worst, Math.abs(live[c]![i + limiter.latency]! - offline[c]![i]!));
  }
  return worst;
};

/** Pink noise at the target tone in 8 s sections alternating 6 dB apart (a verse/chorus song's LRA). */
export const sectionedNoise = (sampleRate: number, gainDb: number): Float32Array[] => {
  const noise = shapedNoise({
    log2Frames: 22,
    seed: 5,
    sampleRate,
    shapeDb: (hz) => targetCurveDb(hz),
    rmsDb: -22 + gainDb,
  });
  const section = 8 * sampleRate;
  return noise.map((c) =>
    Float32Array.from(c.subarray(0, 64 * sampleRate), (v, i) =>
      Math.floor(i / section) % 2 === 0 ? v * 0.5 : v,
    ),
  );
};
