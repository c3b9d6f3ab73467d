/** The sequencing panel's actions: the gap between tracks and a crossfade per transition (issue 31). */
import { MAX_GAP_SECONDS } from './album-rules';
import type { AlbumContext } from './album-store';

export class AlbumSequenceController {
  #ctx: AlbumContext;
  #stop: () => void;

  constructor(ctx: AlbumContext, stop: () => void) {
    this.#ctx = ctx;
    this.#stop = stop;
  }

  /** Seconds of silence between tracks, 0 (gapless) to MAX_GAP_SECONDS, in tenths. */
  setGap(seconds: number): void {
    if (!Number.isFinite(seconds)) return;
    const gapSeconds = Math.round(Math.min(MAX_GAP_SECONDS, Math.max(0, seconds)) * 10) / 10;
    this.#stop();
    this.#ctx.set({ sequence: { ...this.#ctx.state().sequence, gapSeconds } });
  }

  /** A crossfade from the track `key` into the next one, on or off. */
  setCrossfade(key: string, on: boolean): void {
    const { sequence } = this.#ctx.state();
    this.#stop();
    this.#ctx.set({ sequence: { ...sequence, crossfades: { ...sequence.crossfades, [key]: on } } });
  }
}
