/**
 * The loudness gain of the live preview (manual mode). The master worker's `plan` solves the same gain the
 * render would apply (limiter in the loop), so the preview is as loud as the download. It runs on at most
 * 90 s from the middle of the track (the plan copies what it is given: a whole ten-minute track would
 * stall the page on every slider move), debounced while a slider moves. Until a plan arrives, the gain is
 * estimated from the original's integrated loudness.
 */

import type { AdaptivePlan, ToneChoice, TrackAnalysis } from '../engine/engine-api';
import { masterClient } from '../engine/master-job';
import type { MasteringSettings } from '../mastering-constants';

const EXCERPT_SECONDS = 90;
const DEBOUNCE_MS = 250;

export class LiveGainPlanner {
  #planned: { key: string; gainDb: number; adaptive: AdaptivePlan | null } | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #abort: AbortController | null = null;

  /** The best gain known now for these settings and target. */
  gainDb(settings: MasteringSettings, targetLufs: number, originalLufs: number | undefined): number {
    const key = JSON.stringify([settings, targetLufs]);
    if (this.#planned?.key === key) return this.#planned.gainDb;
    return originalLufs !== undefined && Number.isFinite(originalLufs)
      ? Math.min(24, targetLufs - originalLufs)
      : 0;
  }

  /** Plans the gain for these settings shortly; `onPlanned` receives it if nothing newer was asked. */
  schedule(
    source: AudioBuffer,
    settings: MasteringSettings,
    targetLufs: number,
    tone: { choice: ToneChoice; analysis: TrackAnalysis } | null,
    onPlanned: (gainDb: number, adaptive: AdaptivePlan | null) => void,
  ): void {
    this.cancel();
    const key = JSON.stringify([settings, targetLufs]);
    this.#timer = setTimeout(() => {
      const abort = new AbortController();
      this.#abort = abort;
      const frames = Math.min(source.length, Math.round(EXCERPT_SECONDS * source.sampleRate));
      const start = Math.floor((source.length - frames) / 2);
      const excerpt = Array.from({ length: source.numberOfChannels }, (_, c) =>
        source.getChannelData(c).subarray(start, start + frames),
      );
      masterClient()
        .plan(excerpt, source.sampleRate, {
          settings,
          targetLufs,
          tone: tone?.choice,
          analysis: tone?.analysis,
          signal: abort.signal,
        })
        .then((plan) => {
          if (abort.signal.aborted) return;
          this.#planned = { key, gainDb: plan.gainDb, adaptive: plan.adaptive };
          onPlanned(plan.gainDb, plan.adaptive);
        })
        .catch(() => {
          // Cancelled or failed: the estimate stays in use.
        });
    }, DEBOUNCE_MS);
  }

  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#abort?.abort();
    this.#abort = null;
  }

  reset(): void {
    this.cancel();
    this.#planned = null;
  }
}
