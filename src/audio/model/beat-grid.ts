/**
 * The beat grid on the timeline (issue 27, decision 194): lines at every beat from the song facts' first
 * downbeat, bars stronger; snapping a clip's start to the nearest beat or bar; the step a keyboard nudge
 * moves by. With snap off the timeline keeps its 10 ms grid (spec 5).
 */
import type { SongFacts } from './song-facts';
import { DRAG_GRID_SECONDS } from './timeline';

export type SnapMode = 'off' | 'beat' | 'bar';
export const SNAP_MODES: readonly SnapMode[] = ['off', 'beat', 'bar'];

export type GridFacts = Pick<SongFacts, 'tempoBpm' | 'downbeatSeconds' | 'beatsPerBar'>;

export const beatSeconds = (f: GridFacts): number => 60 / f.tempoBpm;
export const barSeconds = (f: GridFacts): number => beatSeconds(f) * f.beatsPerBar;

export interface GridLine {
  seconds: number;
  /** A bar line (downbeat) rather than a beat. */
  bar: boolean;
  /** Bar number from 1 at the first downbeat (0 and below before it). */
  barNumber: number;
}

/** Every beat line from 0 to `durationSeconds`; the grid extends backwards from the first downbeat too. */
export const gridLines = (f: GridFacts, durationSeconds: number): GridLine[] => {
  const beat = beatSeconds(f);
  if (!(beat > 0) || !Number.isFinite(durationSeconds)) return [];
  const first = Math.ceil((0 - f.downbeatSeconds) / beat - 1e-9);
  const lines: GridLine[] = [];
  for (let i = first; ; i++) {
    const seconds = f.downbeatSeconds + i * beat;
    if (seconds > durationSeconds + 1e-9) break;
    const inBar = ((i % f.beatsPerBar) + f.beatsPerBar) % f.beatsPerBar;
    lines.push({ seconds, bar: inBar === 0, barNumber: Math.floor(i / f.beatsPerBar) + 1 });
  }
  return lines;
};

/** The step of one grid unit in seconds: a beat, a bar, or the 10 ms drag grid with snap off. */
export const gridStep = (f: GridFacts | null, mode: SnapMode): number => {
  if (!f || mode === 'off') return DRAG_GRID_SECONDS;
  return mode === 'bar' ? barSeconds(f) : beatSeconds(f);
};

/** The nearest grid point to `seconds` (never before 0 when a later one exists); unchanged with snap off. */
export const snapSeconds = (seconds: number, f: GridFacts | null, mode: SnapMode): number => {
  if (!f || mode === 'off') return seconds;
  const step = gridStep(f, mode);
  let snapped = f.downbeatSeconds + Math.round((seconds - f.downbeatSeconds) / step) * step;
  if (snapped < 0) snapped += step;
  return snapped;
};

/** The grid point one step after (direction 1) or before (−1) `seconds`, for the keyboard nudge. */
export const nudgeSeconds = (
  seconds: number,
  f: GridFacts | null,
  mode: SnapMode,
  direction: 1 | -1,
): number => {
  const step = gridStep(f, mode);
  if (!f || mode === 'off') return seconds + direction * step;
  const index = (seconds - f.downbeatSeconds) / step;
  // From a point on the grid move one step; from between two points move to the next one that way. A clip
  // start is a whole sample, so "on the grid" allows a millisecond.
  const onGrid = Math.abs(index - Math.round(index)) * step < 1e-3;
  const next = onGrid ? Math.round(index) + direction : direction > 0 ? Math.ceil(index) : Math.floor(index);
  return f.downbeatSeconds + next * step;
};
