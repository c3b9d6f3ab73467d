import type { LivePitchPlan } from '../dsp/pitch/corrected-source';
import type { TimelineClip } from '../model/clip';

/** Name the live pitch worklet registers its processor under. */
export const PITCH_PROCESSOR_NAME = 'live-pitch-vocal';

/** Page -> worklet. */
export type PitchNodeMessage =
  /** The vocal source (its own rate), transferred once per loaded vocal; null removes it. */
  | { type: 'source'; channels: Float32Array[] | null; sampleRate: number }
  /** The worker's plan for the current correction curve; null plays the dry vocal. */
  | { type: 'plan'; plan: LivePitchPlan | null }
  /**
   * Play these clips, their positions in frames of the context's clock (`currentFrame`), their source ranges
   * in samples at the context's rate, as the timeline holds them.
   */
  | { type: 'play'; clips: TimelineClip[] }
  | { type: 'stop' }
  | { type: 'dispose' };

/** Worklet -> page. */
export type PitchNodeEvent =
  | { type: 'source'; frames: number }
  | { type: 'plan'; corrected: boolean }
  /** While playing, every ~100 ms: frames played and the largest change the correction made to them. */
  | { type: 'live'; frames: number; moved: number };
