/**
 * Issue 18 "Vocal space" (only with stems): the amount is heard at once in the live chain and its figure is
 * measured when the slider rests; Master Track carves the beat of the stems before the master bus.
 */
import { toAudioBufferInSlices } from '../engine/chunked-copy';
import { setupName } from '../mastering-rules';
import { type MasteringState, readyStems, type VocalSpaceState } from '../mastering-state';
import { NOTICES, TEXT } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import type { LoadedStems } from '../source/mix-stems';
import { carveStems, liveVocalSpace, stemsWithBeat, VocalSpaceMeter } from './vocal-space-job';

export class VocalSpaceController {
  #ctx: PanelContext;
  #meter = new VocalSpaceMeter();
  /** The stems as playable buffers for the live chain, made once per loaded stems. */
  #stemBuffers = new WeakMap<LoadedStems, Promise<{ beat: AudioBuffer; vocal: AudioBuffer }>>();

  constructor(ctx: PanelContext) {
    this.#ctx = ctx;
  }

  #setVocal(patch: Partial<VocalSpaceState>): void {
    this.#ctx.set({ vocalSpace: { ...this.#ctx.state().vocalSpace, ...patch } });
  }

  /** The Vocal space amount: heard at once in the live chain, its figure measured when the slider rests. */
  setAmount(amount: number): void {
    const stems = readyStems(this.#ctx.state());
    if (!stems) return;
    const { player } = this.#ctx;
    const value = Math.min(100, Math.max(0, Math.round(amount)));
    const { profile } = this.#ctx.state().vocalSpace;
    player.setVocalSpace(liveVocalSpace(value, profile));
    if (value === 0) {
      this.#meter.cancel();
      this.#setVocal({ amount: 0, measuring: false });
      return;
    }
    this.#setVocal({ amount: value, measuring: true });
    this.#meter.schedule(
      stems,
      { amount: value, profile },
      (measured) => {
        if (readyStems(this.#ctx.state()) !== stems) return;
        const current = this.#ctx.state().vocalSpace.amount;
        this.#setVocal({
          profile: measured.profile,
          clarity: { ...measured.clarity, amount: value },
          measuring: current !== value,
        });
        player.setVocalSpace(liveVocalSpace(current, measured.profile));
      },
      () => this.#setVocal({ measuring: false }),
    );
  }

  /** The stems as AudioBuffers for the live chain (made once, in slices). */
  stemsToPlay(stems: LoadedStems): Promise<{ beat: AudioBuffer; vocal: AudioBuffer }> {
    let made = this.#stemBuffers.get(stems);
    if (!made) {
      made = Promise.all([
        toAudioBufferInSlices(stems.instrumental, stems.sampleRate),
        toAudioBufferInSlices(stems.vocals, stems.sampleRate),
      ]).then(([beat, vocal]) => ({ beat, vocal }));
      this.#stemBuffers.set(stems, made);
    }
    return made;
  }

  /**
   * Vocal space before the master bus: the versions job gets the stems with the beat carved (every version
   * carries it). At amount 0 the stems pass untouched. Null when cancelled or failed (a toast said why).
   */
  async carvedForMaster(
    stems: LoadedStems,
    onStatus: (status: MasteringState['status']) => void,
    signal: AbortSignal,
  ): Promise<LoadedStems | null> {
    const { amount, profile } = this.#ctx.state().vocalSpace;
    if (amount === 0) return stems;
    const message = TEXT.vocalSpaceCarving;
    onStatus({ percent: 0, message, running: true });
    try {
      const carved = await carveStems(stems, { amount, profile }, signal, (f) =>
        onStatus({ percent: Math.round(f * 5), message, running: true }),
      );
      if (this.#ctx.state().vocalSpace.amount === amount)
        this.#setVocal({ profile: carved.profile, clarity: { ...carved.clarity, amount } });
      return await stemsWithBeat(stems, carved.beat, signal);
    } catch (error) {
      if (signal.aborted) return null;
      this.#ctx.set({ status: null });
      this.#ctx.deps.notify(
        NOTICES.masteringFailed(setupName(this.#ctx.state()), error instanceof Error ? error.message : ''),
      );
      return null;
    }
  }

  /** A new file: the pending measurement goes (the store resets the state and the player). */
  cancel(): void {
    this.#meter.cancel();
  }
}
