/**
 * Issue 18 "Vocal space" on the mastering page. The master worker carves the mix's beat stem by its vocal
 * stem (decision 155) for two reasons: to measure the figure the control shows ("+2.8 dB vocal clarity",
 * debounced while the slider moves, on the whole stems) and, at 'Master Track', to hand the versions job
 * stems whose beat is already carved, so every version (Instrumental too) carries the same carved beat.
 */
import {
  type VocalClarity,
  type VocalSpaceProfile,
  type VocalSpaceSetting,
  yieldToEventLoop,
} from '../engine/engine-api';
import { masterClient } from '../engine/master-job';
import type { LoadedStems } from '../source/mix-stems';

const DEBOUNCE_MS = 300;

/** The beat carved by the vocal (a copy; the loaded stems stay as they are for the next master). */
export const carveStems = async (
  stems: LoadedStems,
  setting: { amount: number; profile: VocalSpaceProfile | null },
  signal: AbortSignal,
  onProgress?: (fraction: number) => void,
): Promise<{ beat: [Float32Array, Float32Array]; profile: VocalSpaceProfile; clarity: VocalClarity }> => {
  const carved = await masterClient().vocalSpace(stems.instrumental, stems.vocals, stems.sampleRate, {
    amount: setting.amount,
    profile: setting.profile ?? undefined,
    signal,
    onProgress,
  });
  const [left, right] = carved.beat as [Float32Array, Float32Array];
  return { beat: [left, right], profile: carved.profile, clarity: carved.clarity };
};

const SLICE = 1 << 21;

/**
 * The stems with a carved beat, for the master: the mix stays vocals + instrumental (mix-stems' promise),
 * summed in slices with event-loop turns between them (no long stall on a long mix).
 */
export const stemsWithBeat = async (
  stems: LoadedStems,
  beat: [Float32Array, Float32Array],
  signal: AbortSignal,
): Promise<LoadedStems> => {
  const mix = beat.map((c) => new Float32Array(c.length));
  for (const [ch, x] of beat.entries()) {
    const y = stems.vocals[ch]!;
    const sum = mix[ch]!;
    for (let start = 0; start < x.length; start += SLICE) {
      const end = Math.min(x.length, start + SLICE);
      for (let i = start; i < end; i++) sum[i] = x[i]! + y[i]!;
      await yieldToEventLoop();
      signal.throwIfAborted();
    }
  }
  return { ...stems, instrumental: beat, mix };
};

/** Measures the figure for an amount shortly after the slider stops; a newer request cancels the older. */
export class VocalSpaceMeter {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #abort: AbortController | null = null;

  schedule(
    stems: LoadedStems,
    setting: { amount: number; profile: VocalSpaceProfile | null },
    onMeasured: (result: { profile: VocalSpaceProfile; clarity: VocalClarity }) => void,
    onFailed: () => void,
  ): void {
    this.cancel();
    this.#timer = setTimeout(() => {
      const abort = new AbortController();
      this.#abort = abort;
      carveStems(stems, setting, abort.signal)
        .then(({ profile, clarity }) => {
          if (!abort.signal.aborted) onMeasured({ profile, clarity });
        })
        .catch(() => {
          if (!abort.signal.aborted) onFailed();
        });
    }, DEBOUNCE_MS);
  }

  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#abort?.abort();
    this.#abort = null;
  }
}

/** What the live chain needs: the amount and the profile, or null while there is no profile yet. */
export const liveVocalSpace = (
  amount: number,
  profile: VocalSpaceProfile | null,
): VocalSpaceSetting | null => (profile && amount > 0 ? { amount, profile } : null);

/** "+2.8 dB vocal clarity" (issue 18's wording). */
export const formatVocalClarity = (clarityDb: number): string =>
  `${clarityDb < 0 ? '-' : '+'}${Math.abs(clarityDb).toFixed(1)} dB vocal clarity`;
