/**
 * Every format at one loudness (issue 28, decision 217). A lossy coder adds overshoots (MP3 320 decodes up
 * to ~0.4 dB over the master's true peak), so the MP3 needs headroom under the -1 dBTP ceiling. Turning the
 * whole file down by 0.5 dB (what the encoder did before) costs 0.5 LU against the WAV; instead the
 * master's copy for the coder is limited to a lower ceiling with the render's own planned true-peak limiter,
 * at the gain that keeps its integrated loudness (solved with the limiter in the loop, as the render
 * solves its target): only the peaks are lowered, and the decoded MP3 measures as the WAV does.
 */
import { TRUE_PEAK_CEILING_DBTP } from '../../shared/mastering';
import { BlockAnalysis, integratedFromBlocks } from './loudness-target';
import { applyLimiterPlan, type RenderControl, solveLoudness } from './mastering-chain';

/** Headroom the coder's overshoots need under the ceiling (measured: up to ~0.4 dB at 320 kbps). */
export const LOSSY_HEADROOM_DB = 0.5;
export const LOSSY_CEILING_DBTP = TRUE_PEAK_CEILING_DBTP - LOSSY_HEADROOM_DB;

export interface LossyLimitReport {
  /** Integrated loudness before and after, LUFS. */
  inputLufs: number;
  outputLufs: number;
  /** Static gain applied before the limiter, dB, and its deepest gain reduction, dB (<= 0). */
  gainDb: number;
  limiterMinGainDb: number;
}

/** Limits `channels` in place to `ceilingDb` dBTP at the same integrated loudness. */
export const limitForLossy = async (
  channels: Float32Array[],
  sampleRate: number,
  ceilingDb = LOSSY_CEILING_DBTP,
  control: RenderControl = {},
): Promise<LossyLimitReport> => {
  const frames = channels[0]?.length ?? 0;
  const blocks = new BlockAnalysis(sampleRate, channels.length, frames);
  if (frames > 0) blocks.push(channels, 0, frames);
  const inputLufs = integratedFromBlocks(blocks.energy, frames, sampleRate);
  if (!Number.isFinite(inputLufs))
    return { inputLufs, outputLufs: inputLufs, gainDb: 0, limiterMinGainDb: 0 };
  const solution = await solveLoudness(
    channels,
    blocks.energy,
    blocks.sampleMax,
    sampleRate,
    // The limiter's fast release (Loud's): the overshoots to catch are single peaks, not a loudness push.
    {
      settings: { compression: 0, brightness: 50, warmth: 50, stereoWidth: 50, loudness: 85 },
      targetLufs: inputLufs,
      ceilingDb,
      maxGainDb: 1,
    },
    control,
  );
  await applyLimiterPlan(
    channels,
    { gainDb: solution.gainDb, boundaryGains: solution.plan.boundaryGains },
    0,
    frames,
    control,
  );
  return {
    inputLufs,
    outputLufs: solution.predictedLufs,
    gainDb: solution.gainDb,
    limiterMinGainDb: solution.plan.minGainDb,
  };
};
