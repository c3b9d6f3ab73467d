/** The mastering screen's state: one immutable snapshot, replaced on every change. */

import type { MixArrangement } from '../../../shared/api/tracks';
import type { Genre } from '../../../shared/genres';
import type {
  BandLevel,
  FoldDown,
  LoudnessReport,
  MasteringReport,
  TrackAnalysis,
  VocalClarity,
  VocalSpaceProfile,
} from './engine/engine-api';
import type { Overview } from './engine/overview';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringMode,
  type MasteringSettings,
  PRESETS,
  type PresetId,
} from './mastering-constants';
import { resultKey, type TargetChoice } from './mastering-rules';
import type { Listen, PlayKind } from './player/mastering-player';
import { PLAY_MASTER, type PlayAs, type VariantKey, type VariantState } from './player/play-as';
import type { LoadedStems } from './source/mix-stems';
import type { VersionsOutput } from './versions/versions-job';

/**
 * Issue 18: the stems of a mixer mix, which make the versions. 'none': the source is a single file (no
 * versions); 'loading' with its progress; 'ready'; 'failed' with the reason (a source track was deleted).
 */
export type StemsState =
  | { status: 'none' }
  | { status: 'loading'; fraction: number }
  | { status: 'ready'; stems: LoadedStems }
  | { status: 'failed'; message: string };

export interface Analysis {
  loudness: LoudnessReport;
  bands: BandLevel[];
  /** Stereo correlation and mono fold-down loss (null when not measured). */
  foldDown: FoldDown | null;
}

export interface SourceState {
  name: string;
  /** The saved track it was loaded from (?trackId); null for a dropped file or a demo. */
  trackId: number | null;
  buffer: AudioBuffer;
  overview: Overview | null;
  analysis: Analysis | null;
  /** The engine's one-pass analysis (spectrum, dynamics, stereo): the adaptive chain plans from it. */
  track: TrackAnalysis | null;
  /** How the mixer made this mix (issue 18); null for a single file. */
  arrangement: MixArrangement | null;
  stems: StemsState;
}

export interface MasterResult {
  key: string;
  name: string;
  targetLufs: number;
  settings: MasteringSettings;
  buffer: AudioBuffer;
  overview: Overview | null;
  /** Null until the meter worker has measured the master. */
  analysis: Analysis | null;
  report: MasteringReport;
  /** Simplified processing was used after the full chain failed (spec 4's 'Mastering Warning'). */
  simplified: boolean;
  /** Versions of this master made for the A/B (Spotify Loud, codec previews), by key, once asked for. */
  variants: Partial<Record<VariantKey, VariantState>>;
  /** Issue 18: the versions mastered with the Main's gains; null when the source has no stems. */
  versions: VersionsOutput | null;
}

export interface JobStatus {
  percent: number;
  message: string;
  running: boolean;
}

export interface MasteringState {
  loading: string | null;
  source: SourceState | null;
  mode: MasteringMode;
  preset: PresetId;
  /** The manual sliders (spec 3 default custom settings until moved). */
  custom: MasteringSettings;
  target: TargetChoice;
  results: Record<string, MasterResult>;
  status: JobStatus | null;
  playing: PlayKind | null;
  /**
   * The original plays through the live chain at the render's settings while the render runs (click to
   * sound, decision 142); the finished master takes over from it.
   */
  hearingLive: boolean;
  listen: Listen;
  volume: number;
  livePreview: boolean;
  /** Reference mastering (manual mode, Unlimited): the track to match and its analysis once measured. */
  reference: ReferenceState | null;
  /** What the B side plays: the master, as a platform plays it, or after a codec. */
  playAs: PlayAs;
  vocalSpace: VocalSpaceState;
  /** Issue 28: the genre chosen on this page; null: the mix's (from the mixer) or the suggested one. */
  genre: Genre | null;
}

/** Issue 18 "Vocal space" (only with stems): the amount, the vocal's profile and the figure. */
export interface VocalSpaceState {
  /** 0..100, 0 = off. */
  amount: number;
  /** The whole vocal's profile, from the first measurement: the live chain and the master use it. */
  profile: VocalSpaceProfile | null;
  /** The figure and the amount it was measured for; null until measured. */
  clarity: (VocalClarity & { amount: number }) | null;
  measuring: boolean;
}

export const initialVocalSpace = (): VocalSpaceState => ({
  amount: 0,
  profile: null,
  clarity: null,
  measuring: false,
});

export interface ReferenceState {
  name: string;
  /** Null while the reference is being analysed. */
  track: TrackAnalysis | null;
}

export const initialState = (): MasteringState => ({
  loading: null,
  source: null,
  mode: 'automatic',
  preset: 'balanced',
  custom: { ...DEFAULT_CUSTOM_SETTINGS },
  target: 'preset',
  results: {},
  status: null,
  playing: null,
  hearingLive: false,
  listen: 'master',
  volume: 75,
  livePreview: true,
  reference: null,
  playAs: PLAY_MASTER,
  vocalSpace: initialVocalSpace(),
  genre: null,
});

/** What the five sliders show: the preset's values in automatic mode, the custom ones in manual mode. */
export const shownSettings = (s: MasteringState): MasteringSettings =>
  s.mode === 'manual' ? s.custom : PRESETS[s.preset].settings;

/** The Tone match amount in force: the manual slider once moved, else the preset's default. */
export const shownToneMatch = (s: MasteringState): number =>
  (s.mode === 'manual' ? s.custom.toneMatch : undefined) ?? PRESETS[s.preset].toneMatch;

/** The master of the current preset or manual setup, if it was made. */
export const currentResult = (s: MasteringState): MasterResult | null => s.results[resultKey(s)] ?? null;

/** The loaded stems of the current mix, or null (a single file, or still loading). */
export const readyStems = (s: MasteringState): LoadedStems | null => {
  const stems = s.source?.stems;
  return stems?.status === 'ready' ? stems.stems : null;
};
