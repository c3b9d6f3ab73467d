/**
 * Playback rules of the sequencer (spec 4, Timeline), as pure functions of a position and the timeline length,
 * both in samples.
 */

/** Playback ends once the playhead reaches 99% of the duration. */
export const END_FRACTION = 0.99;
/** Pressing Play at or beyond 99.5% starts again from 0. */
export const RESTART_FRACTION = 0.995;

export interface Transport {
  readonly playing: boolean;
  /** Paused: the saved position. Playing: the position playback (re)started from. */
  readonly position: number;
}

export const initialTransport = (): Transport => ({ playing: false, position: 0 });

export const hasReachedEnd = (position: number, length: number): boolean => position >= END_FRACTION * length;

/** Where Play starts from a saved position. */
export const playStartPosition = (saved: number, length: number): number =>
  saved >= RESTART_FRACTION * length ? 0 : Math.max(0, Math.round(saved));

/** The position Pause saves: beyond 99% it becomes 0 so the next Play starts over. */
export const pausedPosition = (position: number, length: number): number =>
  position > END_FRACTION * length ? 0 : Math.max(0, Math.round(position));

/** A seek target, or null when it lies outside 0..duration (ignored, spec 5). */
export const seekTarget = (position: number, length: number): number | null =>
  Number.isFinite(position) && position >= 0 && position <= length ? Math.round(position) : null;
