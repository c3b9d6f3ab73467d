import type { MixRenderSettings, MixStage, MixTimeline } from '../../../../audio';
import type { MixArrangement } from '../../../../shared/api/tracks';
import type { Genre } from '../../../../shared/genres';
import { toast } from '../../../components/ui/use-toast';
import { afterPaint, pageCores } from '../../../lib/core-budget';
import { bothLoaded, effectiveGenre, vocalChainAmounts } from '../flow-state';
import type { MixerController } from '../mixer-controller';
import { MIXER_NOTICES } from '../mixer-messages';
import { copyForTransfer, toAudioBuffer } from '../upload/audio-buffers';

/** Progress reaches React at most this often, or when the stage changes (a render sends thousands). */
const PROGRESS_INTERVAL_MS = 100;

export interface FinalMix {
  channels: Float32Array[];
  sampleRate: number;
  buffer: AudioBuffer;
}

/**
 * Create Mixdown: the engine's seven-stage render in the mix worker, its stage messages and progress shown as
 * they really run, cancellable; then the result becomes playable, and is saved as the 'Final Mix' track.
 */
export class MixdownRunner {
  readonly #c: MixerController;
  #abort: AbortController | null = null;
  #final: FinalMix | null = null;

  constructor(controller: MixerController) {
    this.#c = controller;
  }

  get buffer(): AudioBuffer | null {
    return this.#final?.buffer ?? null;
  }

  get final(): FinalMix | null {
    return this.#final;
  }

  async run(): Promise<void> {
    const { store } = this.#c;
    const timeline = this.#c.appliedTimeline();
    if (!bothLoaded(store.getState()) || !timeline) {
      toast({ ...MIXER_NOTICES.missingTracks, variant: 'destructive' });
      return;
    }
    this.cancel();
    this.#c.stopPlayers();
    this.#c.engine.pause();
    const abort = new AbortController();
    this.#abort = abort;
    this.#final = null;
    this.#set('organise', 0, true);
    const { vocalShare, outputVolume, pitch } = store.getState();
    const genre = effectiveGenre(store.getState());
    const vocalChain = vocalChainAmounts(store.getState());
    let last = 0;
    try {
      // With a genre the adaptive vocal chain runs (issue 26); without one the mixdown is the fixed chain.
      const settings: MixRenderSettings = {
        vocalShare,
        outputVolume,
        pitch,
        ...(genre ? { genre } : {}),
        ...(genre && vocalChain ? { vocalChain } : {}),
      };
      // The user waits for it until it shows: it takes a core at once, and background analyses wait
      // (lib/core-budget) until the finished mix is drawn.
      const done = await pageCores.foreground(async () => {
        // The click's own work first (see the previews in mixer-controller.ts), then the worker.
        await afterPaint();
        if (abort.signal.aborted) return false;
        const result = await this.#c.mix.mixdown(timeline, settings, {
          signal: abort.signal,
          onProgress: (p) => {
            const now = performance.now();
            if (p.stage === store.getState().mixdown.stage && now - last < PROGRESS_INTERVAL_MS) return;
            last = now;
            this.#set(p.stage, p.overall, true);
          },
        });
        // User Timing marks: the long-task spec lines the page's own work around the mixdown up with these.
        performance.mark('mixer:mixdown:result');
        const buffer = await toAudioBuffer(this.#c.ctx, result.channels, result.sampleRate);
        performance.mark('mixer:mixdown:playable');
        if (abort.signal.aborted) return false;
        this.#final = { channels: result.channels, sampleRate: result.sampleRate, buffer };
        store.update((s) => ({
          ...s,
          mixdown: { running: false, stage: null, fraction: 1 },
          finalMix: {
            durationSeconds: result.channels[0]!.length / result.sampleRate,
            trackId: null,
            genre,
            report: result.report.vocalChain ?? null,
          },
        }));
        toast({ title: 'Success', description: 'Your mixdown is ready' });
        await afterPaint();
        return true;
      });
      if (!done) return;
      void this.#save(abort.signal, timeline, { vocalShare, outputVolume, pitch, vocalChain }, genre);
    } catch (error) {
      if (abort.signal.aborted) return;
      console.warn('Mixdown failed', error);
      this.#set(null, 0, false);
      toast({ ...MIXER_NOTICES.mixdownFailed, variant: 'destructive' });
    } finally {
      if (this.#abort === abort) this.#abort = null;
    }
  }

  /** The mix is saved as final_mix.wav (type 'mixed', 'Final Mix'); its id enables Export to Mastering. */
  async #save(
    signal: AbortSignal,
    timeline: MixTimeline,
    settings: MixRenderSettings,
    genre: Genre | null,
  ): Promise<void> {
    const final = this.#final;
    if (!final) return;
    try {
      const copies = await copyForTransfer(final.channels);
      performance.mark('mixer:mixdown:copied');
      const wav = await this.#c.encoder.wav(copies, final.sampleRate, { signal, transfer: true });
      performance.mark('mixer:mixdown:encoded');
      const id = await this.#c.saveFinalMix(wav, this.#arrangement(timeline, settings, genre));
      if (id === null || signal.aborted || this.#final !== final) return;
      this.#c.store.update((s) => (s.finalMix ? { ...s, finalMix: { ...s.finalMix, trackId: id } } : s));
    } catch (error) {
      console.warn('The final mix could not be encoded for saving', error);
    }
  }

  /**
   * How this mixdown was made (issue 18), so the mastering page can render its stems again; null while a
   * source is not a saved track (its upload failed or is still running): that mix then has no versions.
   */
  #arrangement(
    timeline: MixTimeline,
    settings: MixRenderSettings,
    genre: Genre | null,
  ): MixArrangement | null {
    const { vocals, instrumental } = this.#c.store.getState().tracks;
    if (vocals.trackId === null || instrumental.trackId === null) return null;
    const songFacts = this.#c.engine.getState().songFacts;
    return {
      vocalTrackId: vocals.trackId,
      instrumentalTrackId: instrumental.trackId,
      sampleRate: timeline.sampleRate,
      length: timeline.length,
      vocalShare: settings.vocalShare,
      outputVolume: settings.outputVolume,
      // The mastering page's default genre for this mix (issue 26); absent before any genre is known.
      ...(genre ? { genre } : {}),
      ...(genre && settings.vocalChain ? { vocalChain: settings.vocalChain } : {}),
      ...(settings.pitch && settings.pitch.amount > 0 ? { pitch: settings.pitch } : {}),
      clips: timeline.clips.map(({ id, trackType, sourceStart, sourceEnd, position }) => ({
        id,
        trackType,
        sourceStart,
        sourceEnd,
        position,
      })),
      ...(songFacts ? { songFacts } : {}),
    };
  }

  cancel(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = null;
    this.#set(null, 0, false);
  }

  /** The tracks or the sequence changed: the mixdown no longer matches them. */
  reset(): void {
    this.cancel();
    this.#final = null;
    this.#c.store.update((s) => ({
      ...s,
      finalMix: null,
      mixdown: { running: false, stage: null, fraction: 0 },
    }));
  }

  #set(stage: MixStage | null, fraction: number, running: boolean): void {
    this.#c.store.update((s) => ({ ...s, mixdown: { running, stage, fraction } }));
  }
}
