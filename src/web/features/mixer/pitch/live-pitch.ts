import {
  buildLivePitchVocal,
  type LivePitchVocal,
  type MixClient,
  type PitchCurveView,
} from '../../../../audio';
import type { PitchSettings } from '../../../../shared/pitch-settings';
import { pageCores } from '../../../lib/core-budget';
import { type FlowState, isBusy, Store } from '../flow-state';
import type { TrackPlayback } from '../track-playback';
import { copyForTransfer } from '../upload/audio-buffers';

/** Settings settle before the worker rebuilds the curve (a slider drag sends many). */
const CURVE_DELAY_MS = 250;

export interface PitchState {
  status: 'idle' | 'analysing' | 'ready' | 'failed';
  /** Tracking progress, whole percent. */
  progress: number;
  curve: PitchCurveView | null;
  /** How the vocal plays: from its buffer (dry), being handed to the worklet, or through the worklet. */
  livePath: 'buffer' | 'loading' | 'worklet';
  /** The largest change the correction made to the vocal heard since the current curve reached the worklet. */
  heardMoved: number;
  /** The amount of the correction the worklet holds (null: none yet). */
  liveAmount: number | null;
}

const initialPitch = (): PitchState => ({
  status: 'idle',
  progress: 0,
  curve: null,
  livePath: 'buffer',
  heardMoved: 0,
  liveAmount: null,
});

/**
 * Pitch correction on the mixer screen (issue 27, decision 260): the worker's curves for the pitch view and,
 * once correction is turned on, the live vocal through the pitch AudioWorklet with the worker's grain plan
 * for the same curve. The page only copies the vocal once (in slices) and forwards messages: tracking,
 * curves and grain plans are the worker's, the shifting the audio thread's.
 */
export class LivePitchRunner {
  readonly store = new Store<PitchState>(initialPitch());
  readonly #ctx: AudioContext;
  readonly #playback: TrackPlayback;
  readonly #mix: MixClient;
  readonly #flow: Store<FlowState>;
  #vocal: AudioBuffer | null = null;
  #worklet: Promise<LivePitchVocal> | null = null;
  /** The vocal buffer whose copy the worklet holds. */
  #workletSource: AudioBuffer | null = null;
  #settings: PitchSettings | null = null;
  #loaded = false;
  /** A curve is due but waits for a track being loaded (see #flowChanged). */
  #deferred = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #abort: AbortController | null = null;
  #unsubscribe: () => void;

  constructor(ctx: AudioContext, playback: TrackPlayback, mix: MixClient, flow: Store<FlowState>) {
    this.#ctx = ctx;
    this.#playback = playback;
    this.#mix = mix;
    this.#flow = flow;
    this.#unsubscribe = flow.subscribe(() => this.#flowChanged());
  }

  /** The decoded vocal (null: removed). The worker already has it; the worklet gets a copy when needed. */
  setVocal(buffer: AudioBuffer | null): void {
    if (buffer === this.#vocal) return;
    this.#vocal = buffer;
    this.#playback.setLiveVocal(null);
    // The worklet lets go of the old vocal's copy at once (a new one is sent when correction is next heard).
    if (this.#workletSource) void this.#worklet?.then((w) => w.setSource(null, 0));
    this.#workletSource = null;
    this.#settings = null;
    this.store.update(() => initialPitch());
    this.#flowChanged();
  }

  #flowChanged(): void {
    const flow = this.#flow.getState();
    const loaded = flow.tracks.vocals.status === 'loaded' && this.#vocal !== null;
    // A track being loaded is what the user waits for, and its hand-over goes to the same mix worker: a
    // curve due meanwhile (a long vocal's takes seconds) starts once no track is loading. Before, a beat
    // queued behind the vocal waited for the whole curve when the curve's timer won the race (decision 297).
    const busy = isBusy(flow.tracks.vocals) || isBusy(flow.tracks.instrumental);
    const resume = this.#deferred && !busy;
    if (flow.pitch === this.#settings && loaded === this.#loaded && !resume) return;
    this.#settings = flow.pitch;
    this.#loaded = loaded;
    this.#deferred = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#abort?.abort();
    if (!loaded) {
      this.store.update((s) => ({ ...s, status: 'idle', curve: null }));
      return;
    }
    if (busy) {
      this.#deferred = true;
      return;
    }
    this.#timer = setTimeout(() => void this.#refresh(flow.pitch), CURVE_DELAY_MS);
  }

  async #refresh(settings: PitchSettings): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    const vocal = this.#vocal;
    this.store.update((s) => (s.status === 'ready' ? s : { ...s, status: 'analysing' }));
    try {
      // Shown, not waited on: the tracking holds while a press is handled and drawn (decision 308).
      const curve = await this.#mix.pitchCurve(settings, {
        signal: abort.signal,
        gate: pageCores.pressGate ?? undefined,
        onProgress: (f) => {
          const progress = Math.floor(f * 100);
          this.store.update((s) => (s.progress === progress ? s : { ...s, progress }));
        },
      });
      if (abort.signal.aborted) return;
      this.store.update((s) => ({ ...s, curve, status: curve ? 'ready' : 'idle' }));
      // The live path starts with the first correction and then follows every curve (amount 0 included, which
      // the worklet plays bit for bit as the dry vocal), so a slider moved to 0 and back does not switch paths.
      if (curve && vocal && (settings.amount > 0 || this.#workletSource === vocal))
        await this.#toWorklet(vocal, curve, settings.amount, abort.signal);
    } catch (error) {
      if (abort.signal.aborted) return;
      console.warn('Pitch analysis failed', error);
      this.store.update((s) => ({ ...s, status: 'failed' }));
    }
  }

  async #toWorklet(
    vocal: AudioBuffer,
    curve: PitchCurveView,
    amount: number,
    signal: AbortSignal,
  ): Promise<void> {
    this.#worklet ??= buildLivePitchVocal(this.#ctx, {
      onReading: (r) => {
        const moved = Math.round(r.moved * 1e4) / 1e4;
        this.store.update((s) => (moved > s.heardMoved ? { ...s, heardMoved: moved } : s));
      },
    });
    const worklet = await this.#worklet;
    if (this.#workletSource !== vocal) {
      this.store.update((s) => ({ ...s, livePath: 'loading' }));
      // A private copy, made a slice at a time: the page never blocks on one big copy, the buffer keeps playing.
      const channels = await copyForTransfer(
        Array.from({ length: vocal.numberOfChannels }, (_, c) => vocal.getChannelData(c)),
      );
      if (signal.aborted || this.#vocal !== vocal) return;
      await worklet.setSource(channels, vocal.sampleRate);
      this.#workletSource = vocal;
    }
    await worklet.setPlan(curve.live);
    if (this.#vocal !== vocal) return;
    this.#playback.setLiveVocal(worklet);
    this.store.update((s) => ({ ...s, livePath: 'worklet', heardMoved: 0, liveAmount: amount }));
  }

  dispose(): void {
    this.#unsubscribe();
    if (this.#timer) clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#playback.setLiveVocal(null);
    void this.#worklet?.then((w) => w.dispose()).catch(() => undefined);
  }
}
