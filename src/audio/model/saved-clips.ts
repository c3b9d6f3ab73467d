import { type Clip, secondsToSamples, type TimelineClip, type TrackType } from './clip';

/**
 * A saved session's clips (seconds) for one loaded source, as timeline clips (samples). Saved data is outside
 * our control, so every clip is forced inside its source and after 0; clips with nothing left are dropped.
 * The selection is not restored: a reopened session starts with nothing selected.
 */
export const clipsFromSaved = (
  saved: readonly Clip[] | undefined,
  trackType: TrackType,
  sourceLength: number,
  sampleRate: number,
): TimelineClip[] => {
  if (!saved) return [];
  const out: TimelineClip[] = [];
  const seen = new Set<string>();
  for (const clip of saved) {
    const { startTime, endTime, position } = clip;
    if (![startTime, endTime, position].every(Number.isFinite)) continue;
    const sourceStart = Math.min(Math.max(secondsToSamples(startTime, sampleRate), 0), sourceLength);
    const sourceEnd = Math.min(Math.max(secondsToSamples(endTime, sampleRate), sourceStart), sourceLength);
    if (sourceEnd <= sourceStart) continue;
    // Ids must stay unique for selection to mean one clip; a repeated id gets a suffix.
    let id = String(clip.id);
    while (seen.has(id)) id = `${id}'`;
    seen.add(id);
    out.push({
      id,
      trackType,
      sourceStart,
      sourceEnd,
      position: Math.max(secondsToSamples(position, sampleRate), 0),
    });
  }
  return out;
};
