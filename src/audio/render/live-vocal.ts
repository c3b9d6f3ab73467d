/**
 * One quantum of the live pitch-corrected vocal (decision 260): the corrected source made valid where this
 * quantum reads it, then laid out by the render's own organiseInto. The AudioWorklet calls this per 128
 * frames; the tests call it too, so they check the code that plays.
 */
import type { CorrectedSource } from '../dsp/pitch/corrected-source';
import { clipEnd, type TimelineClip } from '../model/clip';
import { organiseInto } from './mix-organise';

/**
 * Writes timeline frames [start, start + out[0].length) of the corrected vocal into `out`; returns the largest
 * change the correction made to the samples read (0 when nothing sounds or the vocal is dry).
 */
export const renderLiveVocal = (
  source: CorrectedSource,
  sourceRate: number,
  clips: readonly TimelineClip[],
  timelineRate: number,
  start: number,
  out: readonly Float32Array[],
): number => {
  const frames = out[0]?.length ?? 0;
  const ratio = sourceRate / timelineRate;
  let moved = 0;
  for (const clip of clips) {
    const from = Math.max(clip.position, start);
    const to = Math.min(clipEnd(clip), start + frames);
    if (to <= from) continue;
    // The source samples read (Hermite interpolation reads one before and two after a position).
    const a = Math.floor((clip.sourceStart + from - clip.position) * ratio) - 1;
    const b = Math.ceil((clip.sourceStart + to - clip.position) * ratio) + 3;
    source.ensure(a, b);
    moved = Math.max(moved, source.movedIn(a, b));
  }
  organiseInto(out, { channels: source.channels, sampleRate: sourceRate }, clips, timelineRate, start);
  return moved;
};
