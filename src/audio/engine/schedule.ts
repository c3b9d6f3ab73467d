import { clipEnd, type TimelineClip, type TrackType } from '../model/clip';

/** One source node to start: when (relative to the transport's start), from where in the source, for how long. */
export interface ScheduledClip {
  readonly clipId: string;
  readonly trackType: TrackType;
  /** Seconds after the transport starts at `playhead`. */
  readonly delay: number;
  /** Seconds into the source. */
  readonly offset: number;
  /** Seconds of source to play. */
  readonly duration: number;
}

/**
 * What to start so that playback from `playhead` (timeline samples) plays every clip at its position: clips
 * ahead start later, a clip under the playhead starts part-way in, clips behind are skipped.
 */
export const scheduleFrom = (
  clips: readonly TimelineClip[],
  playhead: number,
  sampleRate: number,
): ScheduledClip[] => {
  const out: ScheduledClip[] = [];
  for (const clip of clips) {
    const end = clipEnd(clip);
    if (end <= playhead) continue;
    const skip = Math.max(0, playhead - clip.position);
    out.push({
      clipId: clip.id,
      trackType: clip.trackType,
      delay: Math.max(0, clip.position - playhead) / sampleRate,
      offset: (clip.sourceStart + skip) / sampleRate,
      duration: (end - Math.max(playhead, clip.position)) / sampleRate,
    });
  }
  return out;
};
