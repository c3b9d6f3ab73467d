import type { SnapMode } from '../model/beat-grid';
import { type Clip, samplesToSeconds, type TrackType } from '../model/clip';
import { canRedo, canUndo, createHistory, type EditHistory } from '../model/history';
import type { SongFacts } from '../model/song-facts';
import { createTimeline, type Timeline, timelineLength, toSpecClips } from '../model/timeline';
import { initialTransport, type Transport } from '../model/transport';

/** Spec 9: the mixer's preview volume starts at 80%. */
export const DEFAULT_PREVIEW_VOLUME = 80;

/** One immutable snapshot of everything the mixer screen draws (apart from the moving playhead). */
export interface MixerState {
  readonly history: EditHistory;
  readonly transport: Transport;
  /** 0..100; playback only. */
  readonly previewVolume: number;
  /** Bumped by Apply Sequence: the clips the previews and mixdown were made from. */
  readonly appliedRevision: number;
  /** The timeline as it was applied, or null before Apply Sequence. */
  readonly applied: Timeline | null;
  /** Issue 27: the beat's tempo, grid and key (analysed or typed), or null before an instrumental is known. */
  readonly songFacts: SongFacts | null;
  /** Where drags and nudges snap: the 10 ms grid (off), beats or bars (decision 194). */
  readonly snap: SnapMode;
}

export const initialMixerState = (sampleRate: number): MixerState => ({
  history: createHistory(createTimeline(sampleRate)),
  transport: initialTransport(),
  previewVolume: DEFAULT_PREVIEW_VOLUME,
  appliedRevision: 0,
  applied: null,
  songFacts: null,
  snap: 'off',
});

export const selectTimeline = (s: MixerState): Timeline => s.history.present;
export const selectDurationSeconds = (s: MixerState): number =>
  samplesToSeconds(timelineLength(s.history.present), s.history.present.sampleRate);
export const selectSpecClips = (s: MixerState): Record<TrackType, Clip[]> => toSpecClips(s.history.present);
export const selectCanUndo = (s: MixerState): boolean => canUndo(s.history);
export const selectCanRedo = (s: MixerState): boolean => canRedo(s.history);
export const selectLoaded = (s: MixerState, trackType: TrackType): boolean =>
  s.history.present.sources[trackType] !== undefined;
/** Whether the clips changed since Apply Sequence (the previews then no longer match the sequence). */
export const selectSequenceStale = (s: MixerState): boolean =>
  s.applied !== null && s.applied.clips !== s.history.present.clips;
