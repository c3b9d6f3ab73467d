import type { MasteringSettings } from '../../shared/mastering';
import type { AdaptivePlan, ToneChoice } from '../dsp/adaptive-plan';
import type { BandLevel } from '../dsp/band-levels';
import type { HandoverMemory } from '../dsp/block-handover';
import type { CompressorDynamics } from '../dsp/dynamics-stats';
import type { MixVersion, VersionsResult } from '../dsp/master-versions';
import type {
  LoudnessHead,
  LoudnessSolution,
  LoudnessStart,
  MasteringProgress,
  MasteringReport,
} from '../dsp/mastering-chain';
import type { ChainHalfSetup, ProcessedMeasurement } from '../dsp/mastering-pipeline';
import type { SpectrumSums, TrackAnalysis, TrackLevels } from '../dsp/track-analysis';
import type { VocalClarity } from '../dsp/vocal-clarity';
import type { VocalSpaceProfile } from '../dsp/vocal-space';

/**
 * The master worker's protocol (see worker-rpc.ts). The channels move to the worker, are mastered in place
 * and move back: no copy either way.
 */
export interface MasterApi {
  master: {
    request: {
      channels: Float32Array[];
      sampleRate: number;
      settings: MasteringSettings;
      targetLufs: number;
      ceilingDb?: number;
      /** Adaptive chain (tone match toward the preset's curve, mono bass); absent: the spec chain. */
      tone?: ToneChoice;
      /** The analysis of exactly these channels, made before: not measured again. */
      inputAnalysis?: TrackAnalysis;
      /** Their band levels, measured before: not measured again. */
      inputBands?: BandLevel[];
    };
    response: { channels: Float32Array[]; report: MasteringReport };
    progress: MasteringProgress;
  };
  /**
   * Issue 18: the Main mastered from a mix's two stems with its gains recorded, and every other version
   * asked for mastered with them (the stems are consumed).
   */
  versions: {
    request: {
      vocals: Float32Array[];
      instrumental: Float32Array[];
      versions: MixVersion[];
      sampleRate: number;
      settings: MasteringSettings;
      targetLufs: number;
      tone?: ToneChoice;
    };
    response: VersionsResult;
    progress: MasteringProgress;
  };
  /** The loudness gain a render would apply, for the live path (the channels are consumed). */
  plan: {
    request: {
      channels: Float32Array[];
      sampleRate: number;
      settings: MasteringSettings;
      targetLufs: number;
      tone?: ToneChoice;
      /** The whole track's analysis when `channels` is an excerpt (the live path plays the whole track's EQ). */
      analysis?: TrackAnalysis;
    };
    response: {
      gainDb: number;
      predictedLufs: number;
      processedLufs: number;
      adaptive: AdaptivePlan | null;
    };
    progress: MasteringProgress;
  };
  /**
   * Vocal space (issue 18): the beat stem carved in place by the vocal stem, before the master bus, and the
   * vocal-band clarity figure (before/after). Both stems move to the worker and back.
   */
  vocalSpace: {
    request: {
      beat: Float32Array[];
      vocal: Float32Array[];
      sampleRate: number;
      amount: number;
      /** The vocal's profile when already known (the live path's); analysed from `vocal` otherwise. */
      profile?: VocalSpaceProfile;
    };
    response: {
      beat: Float32Array[];
      vocal: Float32Array[];
      profile: VocalSpaceProfile;
      clarity: VocalClarity;
    };
    progress: { fraction: number };
  };
  /** The one-pass analysis of a whole track (the channels are consumed). */
  analyse: {
    request: { channels: Float32Array[]; sampleRate: number };
    response: TrackAnalysis;
    progress: never;
  };
  /**
   * The two-worker render (decision 141, master-pair-client.ts). Channels live on SharedArrayBuffers, seen by
   * both workers and the page; nothing moves. The input's 1/3-octave band levels (the report's):
   */
  bandLevels: {
    request: { channels: Float32Array[]; sampleRate: number };
    response: BandLevel[];
    progress: never;
  };
  /** The analysis' level half (track-analysis.ts), in one worker while the other measures the spectrum. */
  trackLevels: {
    request: { channels: Float32Array[]; sampleRate: number };
    response: TrackLevels;
    progress: never;
  };
  /** The analysis' spectrum half. */
  trackSpectrum: {
    request: { channels: Float32Array[] };
    response: SpectrumSums;
    progress: never;
  };
  /** The chain's front half over the whole track, handing blocks to the back through `memory`. */
  chainFront: {
    request: { channels: Float32Array[]; setup: ChainHalfSetup; memory: HandoverMemory };
    /** What its compressor did (the single-band one runs in the front). */
    response: CompressorDynamics;
    progress: MasteringProgress;
  };
  /**
   * The chain's back half as blocks arrive; it measures what it produces (on shared memory, for the loudness
   * steps below) and says where the loudness solve starts.
   */
  chainBack: {
    request: { channels: Float32Array[]; setup: ChainHalfSetup; memory: HandoverMemory };
    response: {
      measurement: ProcessedMeasurement;
      start: LoudnessStart;
      adaptive: AdaptivePlan | null;
      dynamics: CompressorDynamics;
    };
    progress: MasteringProgress;
  };
  /**
   * The front's part of the loudness solve (decision 317): the block true peaks of every gain the solve tries,
   * chunks claimed beside the solving worker through `head.share`, until the solve closes it; after its part
   * of the first gain, the input's band levels for the report (`bands`), returned at the end.
   */
  helpSolve: {
    request: {
      channels: Float32Array[];
      sampleMax: Float64Array;
      head: LoudnessHead;
      sampleRate: number;
      /** bandLevelExcerpt of the input, measured in a pause of the solve; absent when the page has its bands. */
      bands?: Float32Array[];
    };
    response: BandLevel[] | null;
    progress: never;
  };
  /** The loudness solve from there; the limiter's block gains come back on shared memory. */
  solveLoudness: {
    request: {
      channels: Float32Array[];
      measurement: ProcessedMeasurement;
      setup: ChainHalfSetup;
      head: LoudnessHead;
    };
    response: LoudnessSolution;
    progress: MasteringProgress;
  };
  /** The final gain and the limiter's planned gains over frames [from, to). */
  applyLimiter: {
    request: {
      channels: Float32Array[];
      gainDb: number;
      boundaryGains: Float64Array;
      from: number;
      to: number;
    };
    response: null;
    progress: MasteringProgress;
  };
}
