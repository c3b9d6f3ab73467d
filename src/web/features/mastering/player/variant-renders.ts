/**
 * The versions of a master made for the A/B (Spotify Loud's limiter, the codec previews): each made once per
 * master and kept in its `variants`, all aborted together with the file or a new master. The single page
 * keeps them on its results, the album on each track's master: `write` puts one version's state where its
 * owner keeps it (and drops it when that master is gone).
 */
import { CodecUnavailableError } from '../codec/codec-preview';
import type { LoudnessReport } from '../engine/engine-api';
import type { MasterResult } from '../mastering-state';
import { type ReadyVariant, renderVariant, type VariantKey, type VariantState } from './play-as';

/** What a version is made from and kept on. */
export type VariantHolder = Pick<MasterResult, 'buffer' | 'report' | 'variants'>;

export class VariantRenders<T extends VariantHolder> {
  #write: (master: T, key: VariantKey, state: VariantState) => void;
  /** The running Spotify Loud / codec preview renders (aborted with the file or a new master). */
  #jobs = new AbortController();

  constructor(write: (master: T, key: VariantKey, state: VariantState) => void) {
    this.#write = write;
  }

  /** Makes (once) and returns a version of `result`; null when it cannot be made (the state says why). */
  async make(key: VariantKey, result: T, measured: LoudnessReport): Promise<ReadyVariant | null> {
    const known = result.variants[key];
    if (known?.status === 'ready') return known;
    if (known?.status === 'working' || known?.status === 'unavailable') return null;
    const update = (state: VariantState) => this.#write(result, key, state);
    update({ status: 'working', percent: 0 });
    const signal = this.#jobs.signal;
    try {
      const ready = await renderVariant(
        key,
        result.buffer,
        measured,
        result.report.ceilingDbtp,
        signal,
        (f) => update({ status: 'working', percent: Math.round(f * 100) }),
      );
      update(ready);
      return ready;
    } catch (error) {
      if (this.#jobs.signal.aborted) return null;
      const message = error instanceof Error ? error.message : String(error);
      update(
        error instanceof CodecUnavailableError
          ? { status: 'unavailable', message }
          : { status: 'failed', message },
      );
      return null;
    }
  }

  /** Aborts every running render and takes new ones (a new file). */
  reset(): void {
    this.#jobs.abort();
    this.#jobs = new AbortController();
  }

  /** Aborts every running render (the screen goes). */
  abort(): void {
    this.#jobs.abort();
  }
}
