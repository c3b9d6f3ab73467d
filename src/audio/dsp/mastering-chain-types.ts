/** The mastering render's stages, options, progress, trace and report: what callers and workers exchange. */

import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan, ToneChoice } from './adaptive-plan';
import type { BandLevel } from './band-levels';
import type { ChainDynamics } from './dynamics-stats';
import type { LimiterOptions } from './limiter';
import type { DynamicsTrace } from './mastering-processor';
import type { TrackAnalysis } from './track-analysis';

/** The real stages of a master render, in order. */
export const MASTERING_STAGES = [
  'analysing',
  'spectrum',
  'building',
  'processing',
  'loudness',
  'limiting',
] as const;
export type MasteringStage = (typeof MASTERING_STAGES)[number];

export interface MasteringProgress {
  stage: MasteringStage;
  /** Overall completion, 0..1. */
  fraction: number;
}

export interface MasterRenderOptions {
  settings: MasteringSettings;
  targetLufs: number;
  ceilingDb?: number;
  /** Never raise the level by more than this (a near-silent file is not pushed into noise). */
  maxGainDb?: number;
  /**
   * Stop after solving the loudness gain (no final pass): what the live path needs to play at the level the
   * download will have. The channels are left processed but without gain and limiting.
   */
  planOnly?: boolean;
  /** Limiter timing (defaults: limiterOptionsFor the settings). */
  limiter?: LimiterOptions;
  /**
   * Make the chain adaptive (corrective tone EQ toward the preset's target, mono bass): the preset whose
   * target and default amount apply, and the manual "Tone match" amount. Absent: the spec chain only.
   */
  tone?: ToneChoice;
  /**
   * The analysis to plan from instead of analysing `channels`: the live path plans on an excerpt but must
   * play the whole track's EQ.
   */
  analysis?: TrackAnalysis;
  /**
   * Record what the render's nonlinear stages did (the dynamics' gain curves, the loudness gain and the
   * limiter's block gains), so the versions of a mix can be rendered with the very same gains (decision 150).
   */
  trace?: MasterTrace;
  /**
   * The analysis of exactly these channels, made before (the screen analyses a track when it loads): the
   * render does not measure it again. Never an excerpt's or another track's.
   */
  inputAnalysis?: TrackAnalysis;
  /**
   * The band levels of exactly these channels (measureBandLevels with its defaults), measured before: the
   * screen's meter measures the original when it loads. The report's input bands, not measured again.
   */
  inputBands?: BandLevel[];
}

/** A master's gain curves: filled in by renderMaster, replayed by renderVersion (master-versions.ts). */
export interface MasterTrace {
  dynamics: DynamicsTrace;
  /** The loudness stage's linear gain and the limiter's boundary gains (one per 16 frames, plus one). */
  output?: { gain: number; boundaryGains: Float64Array; limiter: LimiterOptions };
}

export interface MasteringReport {
  sampleRate: number;
  frames: number;
  channels: number;
  targetLufs: number;
  ceilingDbtp: number;
  input: { peakDb: number; rmsDb: number; bands: BandLevel[] };
  /** What the analysis found (of the whole track when handed in). */
  analysis: TrackAnalysis;
  /** The adaptive stages applied; null for the spec chain. */
  adaptive: AdaptivePlan | null;
  /** Integrated loudness of the processed signal before the loudness stage. */
  processedLufs: number;
  /** Gain applied by the loudness stage (before the limiter). */
  gainDb: number;
  /** Integrated loudness of the output as planned with the limiter in the loop. */
  predictedLufs: number;
  /** Deepest limiter gain reduction, dB (<= 0): the brickwall's own, after the peak compressor. */
  limiterMinGainDb: number;
  /** Deepest gain reduction of the peak compressor before the brickwall (decision 265), dB; 0: none ran. */
  peakCompressorMinGainDb: number;
  /** What the compressor(s) and the limiter reduced, measured during the render (decision 126). */
  dynamics: ChainDynamics;
}

export interface RenderControl {
  signal?: AbortSignal;
  onProgress?: (progress: MasteringProgress) => void;
  /** Gives the event loop a turn (so a cancel message can arrive); default: yieldToEventLoop. */
  yieldFn?: () => Promise<void>;
}
