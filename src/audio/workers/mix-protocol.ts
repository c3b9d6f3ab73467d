import type { Genre } from '../../shared/genres';
import type { PitchSettings } from '../../shared/pitch-settings';
import type { LivePitchPlan } from '../dsp/pitch/corrected-source';
import type { VocalAnalysis } from '../dsp/vocal/analyse-vocal';
import type { VocalChainAmounts } from '../dsp/vocal/vocal-chain';
import type { TimelineClip, TrackType } from '../model/clip';
import type { MixStyleId } from '../model/mix-styles';
import type { SampleWindow } from '../model/preview-window';
import type { MixRenderSettings, MixReport, MixStems, StemLoudness } from '../render/mix-render';
import type { MixProgress } from '../render/mix-stages';

/** The timeline as the renders need it: clips in samples at the timeline's rate and the mix length. */
export interface MixTimeline {
  clips: TimelineClip[];
  sampleRate: number;
  length: number;
  /** The song's tempo (SongFacts): the vocal chain's delay and pre-delay (issue 26). */
  tempoBpm?: number;
}

export interface RenderedMix {
  channels: Float32Array[];
  sampleRate: number;
  report: MixReport;
}

export interface RenderedPreview {
  style: MixStyleId;
  channels: Float32Array[];
  sampleRate: number;
}

/**
 * The mix worker's protocol. Sources are sent once each, in transferred slices, and kept by the worker, so
 * previews and the mixdown do not copy whole tracks across threads again.
 */
export interface MixApi {
  /** Announce a track (its shape) or remove it (channelCount 0); its samples follow in `sourceChunk`s. */
  setSource: {
    request: { trackType: TrackType; channelCount: number; length: number; sampleRate: number };
    response: { frames: number };
    progress: never;
  };
  /**
   * Samples of one channel from `offset`, transferred (never copied in the message: that stalls the page). The
   * client sends each channel whole, which the worker keeps as it comes; a slice is copied into place.
   */
  sourceChunk: {
    request: { trackType: TrackType; channel: number; offset: number; data: Float32Array };
    response: null;
    progress: never;
  };
  mixdown: {
    request: { timeline: MixTimeline; settings: MixRenderSettings };
    response: RenderedMix;
    progress: MixProgress;
  };
  /** The mixdown again with its two buses (vocals + instrumental = the mix): the versions of issue 18. */
  stems: {
    request: { timeline: MixTimeline; settings: MixRenderSettings };
    response: RenderedMix & { stems: MixStems };
    progress: MixProgress;
  };
  previews: {
    request: {
      timeline: MixTimeline;
      window: SampleWindow;
      outputVolume: number;
      styles: MixStyleId[];
      /** Issue 26: the previews hear the adaptive vocal chain for this genre (absent: the fixed chain). */
      genre?: Genre;
      vocalChain?: VocalChainAmounts;
      /** Issue 27: the previews hear the vocal's pitch correction too. */
      pitch?: PitchSettings;
    };
    response: { previews: RenderedPreview[]; loudness: StemLoudness };
    progress: { style: MixStyleId | null; index: number; count: number; progress: MixProgress | null };
  };
  /**
   * Issue 26: the vocal's analysis over the whole timeline (the one the chain uses), for the page's panel; the
   * worker keeps it for the mixdown and the previews of the same vocal, clips and genre.
   */
  analyseVocal: {
    request: { timeline: MixTimeline; genre?: Genre };
    response: VocalAnalysis | null;
    progress: number;
  };
  /**
   * Issue 27: the vocal's pitch curves for the pitch view (tracked once per source, then only the correction
   * curve is rebuilt for new settings); progress 0..1 while tracking.
   */
  pitchCurve: {
    request: { settings: PitchSettings };
    response: PitchCurveView | null;
    progress: number;
  };
}

/** Per-frame curves in MIDI pitch (NaN where unvoiced), frame i at sample i * hop of the vocal source. */
export interface PitchCurveView {
  hop: number;
  sampleRate: number;
  detected: Float32Array;
  target: Float32Array;
  corrected: Float32Array;
  /** The live AudioWorklet's grain plan for the same curve (decision 260). */
  live: LivePitchPlan;
}
