import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan } from '../dsp/adaptive-plan';
import type { VocalSpaceProfile } from '../dsp/vocal-space';

/** Name the worklet registers its processor under. */
export const MASTERING_PROCESSOR_NAME = 'mastering-chain';

/** Options handed to the worklet processor at construction (AudioWorkletNodeOptions.processorOptions). */
export interface MasteringProcessorOptions {
  settings: MasteringSettings;
  /** Loudness-stage gain in dB (from the offline analysis of the processed signal). */
  gainDb: number;
  /** Post a level reading every this many ms (0: no meter). */
  meterIntervalMs: number;
  /** The analysis-driven stages the render plans (tone EQ, mono bass); absent: the spec chain. */
  adaptive?: AdaptivePlan | null;
  /** Vocal space (issue 18): the carve of input 0 (the beat) by input 1 (the vocal); absent: off. */
  vocalSpace?: VocalSpaceSetting | null;
}

/** The vocal-space amount (0..100) and the whole vocal's profile, as the render uses them. */
export interface VocalSpaceSetting {
  amount: number;
  profile: VocalSpaceProfile;
}

/** Page -> worklet. */
export type MasteringNodeMessage =
  | { type: 'settings'; settings: MasteringSettings }
  | { type: 'gain'; gainDb: number }
  | { type: 'adaptive'; plan: AdaptivePlan | null }
  | { type: 'vocalSpace'; setting: VocalSpaceSetting | null }
  | { type: 'reset' }
  | { type: 'dispose' };

/** Worklet -> page. */
export type MasteringNodeEvent =
  | { type: 'level'; rms: number; peak: number; rmsDb: number; peakDb: number }
  | { type: 'ready'; latencyFrames: number };
