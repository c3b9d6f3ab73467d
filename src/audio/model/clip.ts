/**
 * Clips on the timeline. Inside the engine every position and length is an integer number of samples at the
 * running AudioContext's rate; seconds appear only at the edges (display, the spec's saved-session shape).
 */
export const TRACK_TYPES = ['vocals', 'instrumental'] as const;
export type TrackType = (typeof TRACK_TYPES)[number];

/** A stretch of one source placed on the timeline: [sourceStart, sourceEnd) of the source at `position`. */
export interface TimelineClip {
  readonly id: string;
  readonly trackType: TrackType;
  /** First sample taken from the source (inclusive). */
  readonly sourceStart: number;
  /** Sample after the last one taken from the source (exclusive). */
  readonly sourceEnd: number;
  /** Timeline sample where the clip begins. */
  readonly position: number;
}

/** The spec's Clip (section 3): seconds within the source and on the timeline. */
export interface Clip {
  id: string;
  trackType: TrackType;
  startTime: number;
  endTime: number;
  position: number;
  selected: boolean;
}

/** Saved sessions hand clips over per track. */
export interface SavedClips {
  vocals?: readonly Clip[];
  instrumental?: readonly Clip[];
}

export const clipLength = (clip: TimelineClip): number => clip.sourceEnd - clip.sourceStart;
export const clipEnd = (clip: TimelineClip): number => clip.position + clipLength(clip);

/** Seconds to the nearest whole sample at `sampleRate`. */
export const secondsToSamples = (seconds: number, sampleRate: number): number =>
  Math.round(seconds * sampleRate);
export const samplesToSeconds = (samples: number, sampleRate: number): number => samples / sampleRate;

/** Id of the one full-length clip a loaded track starts with (and returns to on Reset All). */
export const fullClipId = (trackType: TrackType): string => `${trackType}-clip`;

/** Only vocal clips can be selected, cut, dragged or deleted (spec 2, Track Sequencer tip). */
export const isEditable = (clip: TimelineClip): boolean => clip.trackType === 'vocals';
