/** The album's state (issue 31): one immutable snapshot, replaced on every change, owned by AlbumStore. */
import type { Genre } from '../../../../shared/genres';
import type { MasteringReport, TrackAnalysis } from '../engine/engine-api';
import type { MasteringSettings, PresetId } from '../mastering-constants';
import type { Analysis } from '../mastering-state';
import type { PlayAs, VariantKey, VariantState } from '../player/play-as';
import type { VersionsOutput } from '../versions/versions-job';
import { type AlbumPlan, DEFAULT_GAP_SECONDS } from './album-engine';

export type TrackLoad =
  | { status: 'loading' }
  | { status: 'analysing' }
  | { status: 'ready' }
  | { status: 'failed'; message: string };

export interface AlbumTrack {
  /** A local id that stays with the track through moves (React keys, results). */
  key: string;
  title: string;
  isrc: string;
  /** The user's distance under the album's loudest song, LU; null: the plan's estimate. */
  distanceLu: number | null;
  /** Unlimited: this track's own chain settings (the five sliders); null: the album preset's. */
  manual: MasteringSettings | null;
  /** Where it came from: a file name or the library item's name. */
  origin: string;
  /** The saved track it was loaded from (library); null for a dropped file. */
  trackId: number | null;
  /** A mixer mix (from the library): mastered from its stems, so it has versions (issue 18). */
  mix: boolean;
  buffer: AudioBuffer | null;
  analysis: TrackAnalysis | null;
  load: TrackLoad;
}

/** One track's master: the render's output and what it was aimed at. */
export interface AlbumMaster {
  buffer: AudioBuffer;
  report: MasteringReport;
  /** The loudness the album plan set for this track. */
  targetLufs: number;
  /** The meter worker's integrated loudness of the master (null until measured). */
  measuredLufs: number | null;
  /** Why this track got what it got, in words (the plan's per-track reasons). */
  why: string[];
  /** The chain's settings it was rendered with (the why panel's EQ reads them). */
  settings: MasteringSettings;
  /** The meter's reading of the master and of the track that went in (null while measuring). */
  analysis: Analysis | null;
  original: Analysis | null;
  /** Its platform and codec versions, made once on first use (the single page's VariantRenders). */
  variants: Partial<Record<VariantKey, VariantState>>;
  /** A mix's versions, mastered with the Main's gains (issue 18); null for any other track. */
  versions: VersionsOutput | null;
}

export interface AlbumRender {
  running: boolean;
  /** Index in the track list being rendered, -1 before the first. */
  index: number;
  percent: number;
  message: string;
  error: string | null;
}

/** Between track i and i+1: the crossfade toggle (the gap is the album's). */
export interface AlbumSequence {
  gapSeconds: number;
  /** Keyed by the first track's key: a crossfade into the next track. */
  crossfades: Record<string, boolean>;
}

export interface AlbumPlayback {
  /**
   * What plays: the whole record, one transition (from the track at `from`), or one track's master alone as
   * a platform or codec plays it (`as`; the per-track "how it will play" and codec preview).
   */
  kind: 'record' | 'transition' | 'track';
  /** The key of the transition's first track, or of the track playing alone. */
  from: string | null;
  /** For 'track': what it plays as. */
  as?: PlayAs;
  /** The track under the playhead (the list highlights it); changes only when the playhead jumps. */
  current: string | null;
}

export interface AlbumState {
  record: string;
  artist: string;
  tracks: readonly AlbumTrack[];
  genre: Genre | null;
  preset: PresetId;
  /** Mixes are mastered from their stems with their versions (issue 18), for the download. */
  withVersions: boolean;
  /** The plan the masters were made with (null before the first Master Album). */
  plan: AlbumPlan | null;
  masters: Record<string, AlbumMaster>;
  render: AlbumRender | null;
  sequence: AlbumSequence;
  playing: AlbumPlayback | null;
  /** The track whose Live preview plays (its original through the live chain); null: none. */
  live: string | null;
  /** The album download being made (files, ZIP, then the one charge); null when none runs. */
  download: { running: boolean; percent: number; phase: 'encoding' | 'zipping' | 'charging' } | null;
  /** The last reorder, said by the live region (keyboard moves are announced). */
  announcement: string;
}

export const initialAlbumState = (): AlbumState => ({
  record: '',
  artist: '',
  tracks: [],
  genre: null,
  preset: 'balanced',
  withVersions: false,
  plan: null,
  masters: {},
  render: null,
  sequence: { gapSeconds: DEFAULT_GAP_SECONDS, crossfades: {} },
  playing: null,
  live: null,
  download: null,
  announcement: '',
});

/** Every track loaded, analysed and mastered with the current order and plan. */
export const allMastered = (s: AlbumState): boolean =>
  s.tracks.length > 0 && s.tracks.every((t) => s.masters[t.key] !== undefined);
