import {
  EncoderClient,
  ListenClient,
  MIX_STYLES,
  MixClient,
  MixerEngine,
  type MixStyleId,
  type MixTimeline,
  PeaksClient,
  PREVIEW_SECONDS,
  previewWindow,
  type Timeline,
  type TrackType,
  timelineLength,
  type VocalChainAmounts,
  type VocalChainStage,
} from '../../../audio';
import type { MixArrangement } from '../../../shared/api/tracks';
import type { Genre } from '../../../shared/genres';
import { PITCH_LIMITS, type PitchSettings } from '../../../shared/pitch-settings';
import { toast } from '../../components/ui/use-toast';
import { afterPaint, pageCores } from '../../lib/core-budget';
import {
  bothLoaded,
  effectiveGenre,
  type FlowState,
  initialFlow,
  Store,
  vocalChainAmounts,
  vocalChainOf,
} from './flow-state';
import { MixdownRunner } from './mixdown/mixdown-runner';
import { MIXER_NOTICES } from './mixer-messages';
import { LivePitchRunner } from './pitch/live-pitch';
import { SongFactsRunner } from './song-facts/song-facts-runner';
import { TrackListener } from './track-listener';
import { BufferPlayer, TrackPlayback } from './track-playback';
import { toAudioBuffer } from './upload/audio-buffers';
import { uploadTrack } from './upload/track-api';
import { type LoadedTrack, TrackLoader } from './upload/track-loader';

/** The worker's timeline; the song's tempo times the vocal chain's delay and reverb (issue 27 item 4). */
const mixTimeline = (t: Timeline, tempoBpm: number | undefined): MixTimeline => ({
  clips: [...t.clips],
  sampleRate: t.sampleRate,
  length: timelineLength(t),
  ...(tempoBpm ? { tempoBpm } : {}),
});

/**
 * Everything the mixer screen does with audio, outside React: the playback context, the engine (timeline,
 * history, transport), the workers (mix, peaks, encoder) and the flow state around them. Components read
 * `engine` and `store` through useSyncExternalStore and call the actions below.
 */
export class MixerController {
  readonly ctx: AudioContext;
  readonly playback: TrackPlayback;
  readonly engine: MixerEngine;
  readonly store = new Store<FlowState>(initialFlow());
  readonly mix = new MixClient();
  readonly encoder = new EncoderClient();
  readonly #peaks = new PeaksClient();
  readonly loader: TrackLoader;
  readonly #player: BufferPlayer;
  readonly mixdown: MixdownRunner;
  readonly listener: TrackListener;
  readonly songFacts: SongFactsRunner;
  /** Issue 27: the pitch view's curves and the live corrected vocal (decision 260). */
  readonly pitch: LivePitchRunner;
  #previews: Partial<Record<MixStyleId, AudioBuffer>> = {};
  #previewAbort: AbortController | null = null;

  constructor() {
    this.ctx = new AudioContext({ latencyHint: 'interactive' });
    this.playback = new TrackPlayback(this.ctx);
    this.engine = new MixerEngine({ sampleRate: this.ctx.sampleRate, output: this.playback });
    this.#player = new BufferPlayer(this.ctx, this.playback.master, (key) =>
      this.store.update((s) => ({ ...s, playing: key as FlowState['playing'] })),
    );
    this.loader = new TrackLoader({
      store: this.store,
      mix: this.mix,
      peaks: this.#peaks,
      fallbackRate: () => this.ctx.sampleRate,
      onLoaded: (type, track, savedId) => this.#trackChanged(type, track, savedId),
      onCleared: (type) => this.#trackChanged(type, null),
    });
    this.mixdown = new MixdownRunner(this);
    this.listener = new TrackListener(this.store, new ListenClient(), (before) => this.#genreChanged(before));
    this.songFacts = new SongFactsRunner(this.engine);
    this.pitch = new LivePitchRunner(this.ctx, this.playback, this.mix, this.store);
    for (const type of ['vocals', 'instrumental'] as const) {
      this.playback.setTrackVolume(type, this.store.getState().tracks[type].volume / 100);
    }
  }

  /** Browsers start an AudioContext suspended until a gesture; every play goes through here first. */
  async resume(): Promise<boolean> {
    if (this.ctx.state === 'running') return true;
    try {
      await this.ctx.resume();
      return true;
    } catch (error) {
      console.warn('AudioContext resume failed', error);
      toast({ ...MIXER_NOTICES.audioContext, variant: 'destructive' });
      return false;
    }
  }

  #trackChanged(type: TrackType, track: LoadedTrack | null, savedId: number | null = null): void {
    this.stopPlayers();
    this.engine.pause();
    this.playback.setBuffer(type, track?.buffer ?? null);
    if (type === 'vocals') this.pitch.setVocal(track?.buffer ?? null);
    this.engine.setTrack(type, track ? track.buffer.duration : null);
    void this.listener.listen(type, track?.buffer ?? null);
    // Issue 27: the beat's tempo, grid and key, analysed in a worker while the user goes on.
    // A restored session's own beat (savedId) takes the session's facts instead (song-facts-runner.ts).
    if (type === 'instrumental') this.songFacts.analyse(track?.buffer ?? null, savedId);
    // New audio invalidates the applied sequence, its previews and any mixdown made from the old audio.
    this.#previewAbort?.abort();
    this.#previews = {};
    this.mixdown.reset();
    this.store.update((s) => ({ ...s, applied: false, previews: { status: 'idle', fraction: 0 } }));
  }

  setTrackVolume(type: TrackType, volume: number): void {
    const v = Math.min(Math.max(Math.round(volume), 0), 100);
    this.playback.setTrackVolume(type, v / 100);
    this.store.update((s) => ({ ...s, tracks: { ...s.tracks, [type]: { ...s.tracks[type], volume: v } } }));
  }

  async togglePlay(): Promise<void> {
    if (!this.engine.getState().transport.playing) {
      if (!(await this.resume())) return;
      this.stopPlayers();
    }
    this.engine.togglePlay();
  }

  resetAll(): void {
    this.engine.resetAll();
  }

  /** Apply Sequence: playback stops, the clips are fixed for the mix, and the three previews render. */
  async applySequence(): Promise<void> {
    if (!bothLoaded(this.store.getState())) {
      toast({ ...MIXER_NOTICES.missingTracks, variant: 'destructive' });
      return;
    }
    this.stopPlayers();
    let timeline: Timeline;
    try {
      timeline = this.engine.applySequence();
    } catch (error) {
      console.warn(error);
      toast({ ...MIXER_NOTICES.applyFailed, variant: 'destructive' });
      return;
    }
    this.mixdown.reset();
    await this.#renderPreviews(timeline);
  }

  /**
   * The three previews of the applied sequence, through the vocal chain of the genre the mix aims at (issue
   * 26): rendered at Apply Sequence, and again when the genre changes while they are shown.
   */
  async #renderPreviews(timeline: Timeline): Promise<void> {
    this.#previewAbort?.abort();
    const abort = new AbortController();
    this.#previewAbort = abort;
    this.#previews = {};
    this.stopPlayers();
    const genre = effectiveGenre(this.store.getState());
    this.store.update((s) => ({ ...s, applied: true, previews: { status: 'rendering', fraction: 0 } }));
    try {
      const window = previewWindow(timeline.sources.vocals, timeline.sampleRate);
      // The user waits for these until they show: they take a core at once, and background analyses wait
      // (lib/core-budget) until the ready previews are drawn.
      await pageCores.foreground(async () => {
        // The click's own work (React's commit, the paint) first, on a core of its own: the gate above has
        // told a running analysis to hold, and the worker starts once the page has drawn the new step.
        await afterPaint();
        if (abort.signal.aborted) return;
        const rendered = await this.mix.previews(
          mixTimeline(timeline, this.engine.getState().songFacts?.tempoBpm),
          window,
          this.store.getState().outputVolume,
          {
            pitch: this.store.getState().pitch,
            signal: abort.signal,
            ...(genre ? { genre, vocalChain: vocalChainAmounts(this.store.getState()) } : {}),
            onProgress: (p) => {
              // Shown in whole percent: most of the worker's reports change nothing on screen.
              const fraction = Math.floor((100 * (p.index + (p.progress?.overall ?? 0))) / p.count) / 100;
              if (fraction === this.store.getState().previews.fraction) return;
              this.store.update((s) => ({ ...s, previews: { status: 'rendering', fraction } }));
            },
          },
        );
        const buffers: Partial<Record<MixStyleId, AudioBuffer>> = {};
        for (const p of rendered) buffers[p.style] = await toAudioBuffer(this.ctx, p.channels, p.sampleRate);
        if (abort.signal.aborted) return;
        this.#previews = buffers;
        this.store.update((s) => ({ ...s, previews: { status: 'ready', fraction: 1 } }));
        await afterPaint();
      });
    } catch (error) {
      if (abort.signal.aborted) return;
      console.warn('Preview generation failed', error);
      this.store.update((s) => ({ ...s, previews: { status: 'failed', fraction: 0 } }));
      toast({ ...MIXER_NOTICES.previewFailed, variant: 'destructive' });
    }
  }

  /** Play/stop one preview; starting one stops the others and the sequencer; it stops itself after 10 s. */
  async togglePreview(style: MixStyleId): Promise<void> {
    if (this.store.getState().playing === style) return this.stopPlayers();
    const buffer = this.#previews[style];
    if (!buffer || !(await this.resume())) return;
    try {
      this.engine.pause();
      this.#player.play(style, buffer, PREVIEW_SECONDS);
    } catch (error) {
      console.warn(error);
      toast({ ...MIXER_NOTICES.playback, variant: 'destructive' });
    }
  }

  async toggleFinal(): Promise<void> {
    if (this.store.getState().playing === 'final') return this.stopPlayers();
    const buffer = this.mixdown.buffer;
    if (!buffer || !(await this.resume())) return;
    try {
      this.engine.pause();
      this.#player.play('final', buffer);
    } catch (error) {
      console.warn(error);
      toast({ ...MIXER_NOTICES.playback, variant: 'destructive' });
    }
  }

  stopPlayers(): void {
    this.#player.stop();
  }

  /** A style button sets the vocal share (75, 50 or 25). */
  selectStyle(style: MixStyleId): void {
    this.store.update((s) => ({ ...s, style, vocalShare: MIX_STYLES[style].vocalShare }));
  }

  /** The genre step: a genre, or null to follow the beat's suggestion. A made mixdown stays as it was made. */
  selectGenre(genre: Genre | null): void {
    const before = effectiveGenre(this.store.getState());
    this.store.update((s) => ({ ...s, genre }));
    this.#genreChanged(before);
  }

  /** The previews on screen were rendered for another genre: render them again (a made mixdown stays). */
  #genreChanged(before: Genre | null): void {
    const flow = this.store.getState();
    const applied = this.engine.getState().applied;
    if (effectiveGenre(flow) === before || !flow.applied || !applied || flow.finalMix) return;
    void this.#renderPreviews(applied);
  }

  setOutputVolume(volume: number): void {
    const v = Math.min(Math.max(Math.round(volume), 0), 100);
    this.store.update((s) => ({ ...s, outputVolume: v }));
  }

  /** Issue 26's manual mode: one stage's amount, 0..100 (the next mixdown uses it). */
  setVocalChainAmount(stage: VocalChainStage, amount: number): void {
    const v = Math.min(100, Math.max(0, Math.round(Number.isFinite(amount) ? amount : 100)));
    this.store.update((s) =>
      s.vocalChain[stage] === v ? s : { ...s, vocalChain: { ...s.vocalChain, [stage]: v } },
    );
  }

  /** A saved session's or mix's amounts (0..1, absent stages as planned; null: every stage as planned). */
  restoreVocalChain(amounts: VocalChainAmounts | null): void {
    this.store.update((s) => ({ ...s, vocalChain: vocalChainOf(amounts) }));
  }

  /** Issue 27: pitch-correction settings (ranges clamped as the server checks them). */
  setPitch(patch: Partial<PitchSettings>): void {
    const clamp = (v: number, { min, max }: { min: number; max: number }) => Math.min(Math.max(v, min), max);
    this.store.update((s) => {
      const next = { ...s.pitch, ...patch };
      next.amount = clamp(Math.round(next.amount), PITCH_LIMITS.amount);
      next.retuneMs = clamp(Math.round(next.retuneMs), PITCH_LIMITS.retuneMs);
      next.humanize = clamp(Math.round(next.humanize), PITCH_LIMITS.humanize);
      return { ...s, pitch: next };
    });
  }

  appliedTimeline(): MixTimeline | null {
    const applied = this.engine.getState().applied;
    return applied && this.store.getState().applied
      ? mixTimeline(applied, this.engine.getState().songFacts?.tempoBpm)
      : null;
  }

  /**
   * Saves the final mix as final_mix.wav, type 'mixed', name 'Final Mix', with its arrangement when both
   * sources are saved tracks (issue 18: the mastering page's versions); failure is only logged.
   */
  async saveFinalMix(wav: Blob, arrangement: MixArrangement | null): Promise<number | null> {
    try {
      const { id } = await uploadTrack(wav, 'final_mix.wav', 'mixed', 'Final Mix', {
        arrangement: arrangement ?? undefined,
      });
      return id;
    } catch (error) {
      console.warn('Saving the final mix failed', error);
      return null;
    }
  }

  dispose(): void {
    this.#previewAbort?.abort();
    this.mixdown.cancel();
    this.listener.dispose();
    this.stopPlayers();
    this.engine.dispose();
    this.playback.dispose();
    this.mix.dispose();
    this.encoder.dispose();
    this.#peaks.dispose();
    this.songFacts.dispose();
    this.pitch.dispose();
    void this.ctx.close();
  }
}
