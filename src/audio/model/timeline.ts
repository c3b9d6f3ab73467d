import {
  type Clip,
  clipEnd,
  clipLength,
  fullClipId,
  isEditable,
  samplesToSeconds,
  secondsToSamples,
  type TimelineClip,
  TRACK_TYPES,
  type TrackType,
} from './clip';

/** Spec 9: an empty timeline lasts 60 s; it is also the floor of the final mix length. */
export const DEFAULT_DURATION_SECONDS = 60;
/** Spec 5: drags snap to hundredths of a second. */
export const DRAG_GRID_SECONDS = 0.01;

export interface Timeline {
  /** The running AudioContext's rate: the one truth for every sample count below. */
  readonly sampleRate: number;
  /** Length in samples of each loaded source. */
  readonly sources: Readonly<Partial<Record<TrackType, number>>>;
  readonly clips: readonly TimelineClip[];
  readonly selectedId: string | null;
}

export const createTimeline = (sampleRate: number): Timeline => {
  if (!Number.isFinite(sampleRate) || sampleRate <= 0)
    throw new RangeError(`Invalid sample rate ${sampleRate}`);
  return { sampleRate, sources: {}, clips: [], selectedId: null };
};

const fullClip = (trackType: TrackType, length: number): TimelineClip => ({
  id: fullClipId(trackType),
  trackType,
  sourceStart: 0,
  sourceEnd: length,
  position: 0,
});

const sourceLengths = (t: Timeline): number[] =>
  TRACK_TYPES.map((type) => t.sources[type]).filter((n): n is number => n !== undefined);

/**
 * Timeline length in samples = max(clip ends, source lengths, 60 s). One rule serves the sequencer's scale and
 * the final mix length (spec 9), so what the user sees is what the mixdown renders; an empty timeline is 60 s.
 */
export const timelineLength = (t: Timeline): number =>
  Math.max(
    secondsToSamples(DEFAULT_DURATION_SECONDS, t.sampleRate),
    ...sourceLengths(t),
    ...t.clips.map(clipEnd),
  );

export const timelineDurationSeconds = (t: Timeline): number =>
  samplesToSeconds(timelineLength(t), t.sampleRate);

/**
 * A track was (re)loaded: its length is recorded and its clips become one full-length clip at 0
 * (a new file invalidates clips cut from the old one). `clips` may bring a saved session's clips instead.
 */
export const loadSource = (
  t: Timeline,
  trackType: TrackType,
  lengthSamples: number,
  clips?: readonly TimelineClip[],
): Timeline => {
  if (!Number.isInteger(lengthSamples) || lengthSamples <= 0) {
    throw new RangeError(`Invalid ${trackType} length ${lengthSamples}`);
  }
  const kept = t.clips.filter((c) => c.trackType !== trackType);
  const own = clips?.length
    ? clips.filter((c) => c.trackType === trackType)
    : [fullClip(trackType, lengthSamples)];
  const selectedGone = t.selectedId !== null && !kept.some((c) => c.id === t.selectedId);
  return {
    ...t,
    sources: { ...t.sources, [trackType]: lengthSamples },
    clips: [...kept, ...own],
    selectedId: selectedGone ? null : t.selectedId,
  };
};

/** A track was removed: its clips go with it. */
export const unloadSource = (t: Timeline, trackType: TrackType): Timeline => {
  if (t.sources[trackType] === undefined) return t;
  const sources = { ...t.sources };
  delete sources[trackType];
  const clips = t.clips.filter((c) => c.trackType !== trackType);
  return { ...t, sources, clips, selectedId: clips.some((c) => c.id === t.selectedId) ? t.selectedId : null };
};

/** Reset All: one full-length clip per loaded track, nothing selected (spec 4). */
export const resetClips = (t: Timeline): Timeline => ({
  ...t,
  clips: TRACK_TYPES.flatMap((type) => {
    const length = t.sources[type];
    return length === undefined ? [] : [fullClip(type, length)];
  }),
  selectedId: null,
});

export const findClip = (t: Timeline, id: string | null): TimelineClip | undefined =>
  id === null ? undefined : t.clips.find((c) => c.id === id);

/** Mouse-down on a vocal clip selects it; instrumental clips are not editable. */
export const selectClip = (t: Timeline, id: string): Timeline => {
  const clip = findClip(t, id);
  if (!clip || !isEditable(clip) || t.selectedId === id) return t;
  return { ...t, selectedId: id };
};

export const clearSelection = (t: Timeline): Timeline =>
  t.selectedId === null ? t : { ...t, selectedId: null };

/**
 * Cut at Playhead: only when the playhead lies strictly inside the selected clip (spec 5). The halves take the
 * ids '{id}-1' and '{id}-2' and nothing stays selected.
 */
export const cutAt = (t: Timeline, playheadSample: number): Timeline => {
  const clip = findClip(t, t.selectedId);
  if (!clip || !isEditable(clip)) return t;
  const at = Math.round(playheadSample);
  if (!(at > clip.position && at < clipEnd(clip))) return t;
  const split = clip.sourceStart + (at - clip.position);
  const first: TimelineClip = { ...clip, id: `${clip.id}-1`, sourceEnd: split };
  const second: TimelineClip = { ...clip, id: `${clip.id}-2`, sourceStart: split, position: at };
  const clips = t.clips.flatMap((c) => (c === clip ? [first, second] : [c]));
  return { ...t, clips, selectedId: null };
};

/** Delete Selected removes the selected vocal clip. */
export const deleteSelected = (t: Timeline): Timeline => {
  const clip = findClip(t, t.selectedId);
  if (!clip || !isEditable(clip)) return t;
  return { ...t, clips: t.clips.filter((c) => c !== clip), selectedId: null };
};

/** The furthest sample a clip may end at while moving: the timeline as it is without that clip. */
const dragBound = (t: Timeline, id: string): number =>
  timelineLength({ ...t, clips: t.clips.filter((c) => c.id !== id) });

/**
 * Drag a vocal clip so it begins at `positionSeconds`: rounded to 0.01 s (or placed by `snap`, the beat
 * grid's snapping, decision 194), then clamped so that the clip stays within the timeline (never before 0,
 * never past the end the other clips and sources define).
 */
export const moveClip = (
  t: Timeline,
  id: string,
  positionSeconds: number,
  snap?: (seconds: number) => number,
): Timeline => {
  const clip = findClip(t, id);
  if (!clip || !isEditable(clip) || !Number.isFinite(positionSeconds)) return t;
  const snapped = snap
    ? snap(positionSeconds)
    : Math.round(positionSeconds / DRAG_GRID_SECONDS) * DRAG_GRID_SECONDS;
  const latest = Math.max(0, dragBound(t, id) - clipLength(clip));
  const position = Math.min(Math.max(secondsToSamples(snapped, t.sampleRate), 0), latest);
  if (position === clip.position) return t;
  return { ...t, clips: t.clips.map((c) => (c === clip ? { ...c, position } : c)) };
};

/** The spec-facing clips, in seconds, grouped as saved sessions store them. */
export const toSpecClips = (t: Timeline): Record<TrackType, Clip[]> => {
  const toClip = (c: TimelineClip): Clip => ({
    id: c.id,
    trackType: c.trackType,
    startTime: samplesToSeconds(c.sourceStart, t.sampleRate),
    endTime: samplesToSeconds(c.sourceEnd, t.sampleRate),
    position: samplesToSeconds(c.position, t.sampleRate),
    selected: c.id === t.selectedId,
  });
  return {
    vocals: t.clips.filter((c) => c.trackType === 'vocals').map(toClip),
    instrumental: t.clips.filter((c) => c.trackType === 'instrumental').map(toClip),
  };
};
