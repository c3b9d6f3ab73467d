/** The mastering screen's state: one immutable snapshot, replaced on every change. */
import type { BandLevel, LoudnessReport, MasteringReport, TrackAnalysis } from './engine-api';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringMode,
  type MasteringSettings,
  PRESETS,
  type PresetId,
} from './mastering-constants';
import type { Listen, PlayKind } from './mastering-player';
import type { TargetChoice } from './mastering-rules';
import type { Overview } from './overview';

export interface Analysis {
  loudness: LoudnessReport;
  bands: BandLevel[];
}

export interface SourceState {
  name: string;
  buffer: AudioBuffer;
  overview: Overview | null;
  analysis: Analysis | null;
  /** The engine's one-pass analysis (spectrum, dynamics, stereo): the adaptive chain plans from it. */
  track: TrackAnalysis | null;
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
}

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
});

/** What the five sliders show: the preset's values in automatic mode, the custom ones in manual mode. */
export const shownSettings = (s: MasteringState): MasteringSettings =>
  s.mode === 'manual' ? s.custom : PRESETS[s.preset].settings;

/** The Tone match amount in force: the manual slider once moved, else the preset's default. */
export const shownToneMatch = (s: MasteringState): number =>
  (s.mode === 'manual' ? s.custom.toneMatch : undefined) ?? PRESETS[s.preset].toneMatch;
