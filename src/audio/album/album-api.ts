/**
 * Issue 31, album mastering: the engine's face for the album page. Types and entry points only; each piece
 * lives in its own file (album-plan.ts, album-overview.ts, album-sequence.ts, cue-sheet.ts, album-tags.ts).
 * These signatures are kept stable (fields are added, never removed or renamed).
 *
 * Flow on the page:
 *   1. analyse every track as the mastering page already does (TrackAnalysis, src/audio/dsp/track-analysis.ts);
 *   2. `albumOverview(tracks)` for the side-by-side figures with the outliers marked;
 *   3. `planAlbum({ tracks, preset, genre })`: per track the loudness to master to and the tone choice, handed
 *      unchanged to the master render (`MasterClient.master(channels, rate, { settings, targetLufs, tone })`
 *      or `albumMasterJob(plan, i)` for exactly those three fields);
 *   4. `sequenceAlbum(masters, rate, options)` for the continuous record (preview and the one-file delivery),
 *      `planSequence(lengths, rate, options)` for the same layout without audio (playhead, track list),
 *      `transitionAudition(masters, rate, options, i)` for the last 10 s of track i into the first 10 s of i+1;
 *   5. delivery: `cueSheet(...)` beside the continuous WAV/FLAC; `tagWav`, `tagFlac`, `tagMp3` put the tags into
 *      the encoders' Blob parts (encodeWav / encodeFlac / encodeMp3 output);
 *   6. charging: POST /api/spend-album with `SpendAlbumBody` (src/shared/api/billing.ts), one key per album
 *      download, after the files are made and before they are handed over.
 */
import type { Genre } from '../../shared/genres';
import type { MasteringSettings, PresetId } from '../../shared/mastering';
import type { ToneChoice } from '../dsp/adaptive-plan';
import type { TrackAnalysis } from '../dsp/track-analysis';

export type { SpendAlbumBody, SpendAlbumResponse } from '../../shared/api/billing';

/** Issue 31: an album holds 2 to 20 tracks. */
export const ALBUM_MIN_TRACKS = 2;
export const ALBUM_MAX_TRACKS = 20;

// ---------------------------------------------------------------------------------------------------------
// 1. The side-by-side analysis (album-overview.ts)
// ---------------------------------------------------------------------------------------------------------

export interface AlbumTrackInput {
  /** The page's id of the track (a saved track's id as a string, or any unique key). */
  id: string;
  /** The track's analysis as the mastering engine computes it (analyseTrack). */
  analysis: TrackAnalysis;
  /**
   * The user's own choice of how far under the album's loudest track this one sits, LU (0 = as loud). Absent:
   * the plan's estimate (decision 280). Clamped to the album's spread bound.
   */
  distanceLu?: number;
}

/** The figures the album page shows per track. */
export type AlbumFigure = 'loudness' | 'lra' | 'tilt' | 'lowEnd';

export interface AlbumTrackFigures {
  id: string;
  /** Integrated loudness of the track as uploaded, LUFS. */
  loudnessLufs: number;
  /** Loudness range, LU. */
  lraLu: number;
  /** Tone tilt: level of 4-16 kHz minus 250 Hz-1 kHz (mid, long-term spectrum), dB. Lower = duller. */
  tiltDb: number;
  /** Low end: level of 40-125 Hz minus 250 Hz-1 kHz, dB. */
  lowEndDb: number;
  /** Correlation of left and right below 120 Hz (-1..1; under 0.5 the bass weakens in mono). */
  lowEndCorrelation: number;
  /** The figures in which this track departs from the album (album-overview.ts says by how much). */
  outliers: AlbumFigure[];
}

export interface AlbumOverview {
  tracks: AlbumTrackFigures[];
  /** The album's median of each figure (what "departs" is measured from). */
  median: Record<AlbumFigure, number>;
  /** How far from the median counts as an outlier, per figure (dB or LU). */
  outlierFrom: Record<AlbumFigure, number>;
}

// ---------------------------------------------------------------------------------------------------------
// 2. The plan (album-plan.ts)
// ---------------------------------------------------------------------------------------------------------

export interface AlbumPlanInput {
  tracks: AlbumTrackInput[];
  /** The album's preset: its loudness target is the loudest track's; its settings master every track. */
  preset: PresetId;
  /** The album's genre target; absent: the genre the album's own balance suggests. */
  genre?: Genre;
  /** 0..100 %, how far the album as a whole moves toward the genre (default: the preset's Tone match). */
  toneMatch?: number;
}

export interface AlbumTrackPlan {
  id: string;
  /** Integrated loudness as uploaded, LUFS. */
  inputLufs: number;
  /** The loudness this track is mastered to, LUFS (the loudest: the preset's target). */
  targetLufs: number;
  /** LU under the album's loudest track (targetLufs = album target - distanceLu). */
  distanceLu: number;
  /** Whether the distance is the user's (AlbumTrackInput.distanceLu) or the plan's estimate. */
  distanceFrom: 'user' | 'estimate';
  /**
   * The tone handed to the master render: the album's genre and preset plus this track's correction
   * (its departure from the album's balance and the album's own move toward the genre).
   */
  tone: ToneChoice;
  /** The input's tilt (4-16 kHz minus 250 Hz-1 kHz), dB, and the tilt the correction is planned to give. */
  tiltDb: number;
  plannedTiltDb: number;
  /**
   * The correction per octave (63 Hz-16 kHz, GENRE_OCTAVES_HZ), dB: `towardAlbumDb` brings the track to the
   * album's balance, `towardGenreDb` is the album's common move (the same for every track); together they
   * are what the tone EQ aims at (the render's range rule may take less, decision 218).
   */
  towardAlbumDb: number[];
  towardGenreDb: number[];
  /**
   * 0..1, for display: how clearly this track departs from the album's balance (decision 213's ramp against
   * half the genre's range). The correction itself is the broad departure beyond 1 dB (decision 281).
   */
  departureConfidence: number;
}

export interface AlbumPlan {
  preset: PresetId;
  /** The preset's settings, for the render of every track. */
  settings: MasteringSettings;
  genre: Genre;
  /** True when the genre was given; false when suggested from the album's balance. */
  genreChosen: boolean;
  /** The loudest track's id and the album's loudness target (the preset's), LUFS. */
  loudestId: string;
  targetLufs: number;
  /** The largest distance any track may have under the loudest, LU (decision 280). */
  spreadLimitLu: number;
  /** The album's own balance: per octave (63 Hz-16 kHz) the median track against the genre's curve, dB. */
  albumBalanceDb: number[];
  /** The share (0..1) of the album's departure from the genre that is corrected (preset x strength x confidence). */
  albumShare: number;
  /** In the input's order. */
  tracks: AlbumTrackPlan[];
}

/** The three fields of a MasterJob (src/audio/workers/master-client.ts) the plan decides for track `index`. */
export interface AlbumMasterJob {
  settings: MasteringSettings;
  targetLufs: number;
  tone: ToneChoice;
}

// ---------------------------------------------------------------------------------------------------------
// 3. Sequencing (album-sequence.ts)
// ---------------------------------------------------------------------------------------------------------

/** The default silence between tracks, seconds (0 = gapless). */
export const DEFAULT_GAP_SECONDS = 2;
/** A transition audition: this long of the end of one track into this long of the start of the next. */
export const AUDITION_SECONDS = 10;

export interface TransitionChoice {
  /** Silence after the track, seconds (default the sequence's gapSeconds). Ignored when crossfading. */
  gapSeconds?: number;
  /** Equal-power crossfade into the next track, seconds (0 or absent: none). Overlaps the two tracks. */
  crossfadeSeconds?: number;
}

export interface SequenceOptions {
  /** Silence between tracks, seconds (default DEFAULT_GAP_SECONDS). */
  gapSeconds?: number;
  /** Per transition (index i: from track i into track i + 1); overrides gapSeconds. */
  transitions?: (TransitionChoice | undefined)[];
  /**
   * Put every track start on a CUE frame (1/75 s; 588 samples at 44.1 kHz) so the CUE sheet is exact to the
   * sample (default true when the rate is a multiple of 75: 44.1, 48, 88.2, 96 kHz ...). A gap grows by under
   * one frame; a gapless or crossfaded join keeps its audio and its marker is rounded to the nearest frame.
   */
  cueAligned?: boolean;
}

export interface SequenceLayout {
  sampleRate: number;
  /** Length of the whole record, samples. */
  frames: number;
  /**
   * Where each track starts on the record, samples: its CUE INDEX 01 and the playhead's jump target. With
   * gaps, exactly its first sample; at a gapless or crossfaded join, the frame-aligned marker (within half a
   * frame of the join); the per-track files cut at these starts join back into the record exactly.
   */
  starts: number[];
  /** Where each track's own first sample lands on the record, samples (equals `starts` when there are gaps). */
  audioStarts: number[];
  /** Where each track's own last sample + 1 lands on the record, samples. */
  audioEnds: number[];
}

export interface SequencedAlbum extends SequenceLayout {
  channels: Float32Array[];
}

export interface TransitionAudition {
  channels: Float32Array[];
  sampleRate: number;
  /** The sample of the audition where the next track starts (its INDEX 01 marker). */
  boundary: number;
}

// ---------------------------------------------------------------------------------------------------------
// 4. Delivery (cue-sheet.ts, album-tags.ts)
// ---------------------------------------------------------------------------------------------------------

export interface CueTrack {
  title: string;
  performer?: string;
  /** ISRC, 12 characters CC-XXX-YY-NNNNN (dashes allowed, removed in the sheet). */
  isrc?: string;
  /** Start on the record, samples (SequenceLayout.starts). */
  startSample: number;
}

export interface CueSheetInput {
  /** The continuous file the sheet describes (its name only). */
  fileName: string;
  /** CUE's file type: WAVE for both WAV and FLAC (as EAC and foobar2000 write for FLAC). */
  fileType?: 'WAVE' | 'MP3' | 'AIFF';
  title: string;
  performer?: string;
  sampleRate: number;
  tracks: CueTrack[];
}

/** Tags of one file. */
export interface AlbumTags {
  title: string;
  artist?: string;
  album?: string;
  /** 1-based; with trackTotal written as "n/total" where the format has it. */
  trackNumber?: number;
  trackTotal?: number;
  isrc?: string;
  /** Year or date, e.g. "2026". */
  date?: string;
  genre?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------------------

export { albumOverview } from './album-overview';
export { ALBUM_SPREAD_LIMIT_LU, albumGenreLabel, albumMasterJob, planAlbum } from './album-plan';
export { planSequence, sequenceAlbum, trackSlices, transitionAudition } from './album-sequence';
export { tagFlac, tagMp3, tagWav } from './album-tags';
export { cueFrames, cueSheet, cueTime, isValidIsrc } from './cue-sheet';
