/**
 * The versions of a master made for the A/B (Spotify Loud's limiter, the codec previews): each made once per
 * master and kept in its result's `variants`, all aborted together with the file or a new master.
 */
import { CodecUnavailableError } from '../codec/codec-preview';
import type { LoudnessReport } from '../engine/engine-api';
import type { MasterResult } from '../mastering-state';
import type { PanelContext } from '../panel-context';
import { type ReadyVariant, renderVariant, type VariantKey, type VariantState } from './play-as';

export class VariantRenders {
  #ctx: PanelContext;
  /** The running Spotify Loud / codec preview renders (aborted with the file or a new master). */
  #jobs = new AbortController();

  constructor(ctx: PanelContext) {
    this.#ctx = ctx;
  }

  /** Makes (once) and returns a version of `result`; null when it cannot be made (the state says why). */
  async make(key: VariantKey, result: MasterResult, measured: LoudnessReport): Promise<ReadyVariant | null> {
    const known = result.variants[key];
    if (known?.status === 'ready') return known;
    if (known?.status === 'working' || known?.status === 'unavailable') return null;
    const update = (state: VariantState) => {
      const results = this.#ctx.state().results;
      const now = results[result.key];
      if (now?.buffer !== result.buffer) return;
      this.#ctx.set({
        results: { ...results, [result.key]: { ...now, variants: { ...now.variants, [key]: state } } },
      });
    };
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
