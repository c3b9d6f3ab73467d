/**
 * What plays (spec 4): the original (through the live chain in manual mode), the master, the master as a
 * platform or a codec plays it, the A/B switch and the volume. Every play goes through the screen's one
 * MasteringPlayer, so one thing plays at a time.
 */
import type { ControlsController } from '../controls/controls-controller';
import { adaptivePlanFor, platformById, platformPlayback } from '../engine/engine-api';
import type { MasteringSettings } from '../mastering-constants';
import { matchedGains, setupName } from '../mastering-rules';
import { currentResult, type MasterResult, readyStems, type SourceState } from '../mastering-state';
import { NOTICES } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import type { VocalSpaceController } from '../vocal-space/vocal-space-controller';
import type { Listen } from './mastering-player';
import { type PlayAs, samePlayAs, variantKeyOf } from './play-as';
import type { VariantRenders } from './variant-renders';

const toGain = (db: number): number => (Number.isFinite(db) ? 10 ** (db / 20) : 1);

export class PlaybackController {
  #ctx: PanelContext;
  #controls: ControlsController;
  #vocalSpace: VocalSpaceController;
  #variants: VariantRenders<MasterResult>;

  constructor(
    ctx: PanelContext,
    peers: {
      controls: ControlsController;
      vocalSpace: VocalSpaceController;
      variants: VariantRenders<MasterResult>;
    },
  ) {
    this.#ctx = ctx;
    this.#controls = peers.controls;
    this.#vocalSpace = peers.vocalSpace;
    this.#variants = peers.variants;
    ctx.player.onEnded = () => ctx.set({ playing: null, hearingLive: false });
  }

  /** The original (through the live chain in manual mode with live preview on), from `offset` seconds. */
  async playOriginal(offset = 0): Promise<void> {
    const { deps, player } = this.#ctx;
    const state = this.#ctx.state();
    const source = state.source;
    if (!source) return deps.notify(NOTICES.noAudioLoaded);
    try {
      const live =
        state.mode === 'manual' && state.livePreview
          ? { settings: state.custom, gainDb: this.#controls.liveGainDb() }
          : null;
      // With stems, the live chain plays them (beat + vocal) so Vocal space is heard as the export makes it.
      const stems = live ? readyStems(state) : null;
      await player.playOriginal(
        source.buffer,
        live,
        stems ? await this.#vocalSpace.stemsToPlay(stems) : null,
        offset,
      );
      this.#ctx.set({ playing: 'original', hearingLive: false });
      // A Master Track click while listening switches to the live chain: have it ready.
      if (!live && !deps.previewMode()) player.prepareLive(this.#ctx.state().custom).catch(() => undefined);
    } catch {
      this.#ctx.set({ playing: null, hearingLive: false });
      deps.notify(NOTICES.originalPlayback);
    }
  }

  /** The original through the live chain from where it plays now, at the render's settings and plan. */
  async listenWhileRendering(source: SourceState, settings: MasteringSettings, targetLufs: number) {
    const { deps, player } = this.#ctx;
    const channels = source.buffer.numberOfChannels;
    const adaptive = source.track
      ? adaptivePlanFor(source.track, channels, this.#controls.toneChoice())
      : null;
    const originalLufs = source.analysis?.loudness.integratedLufs;
    const gainDb = this.#controls.liveGainFor(settings, targetLufs, originalLufs);
    player.updateLive(settings, gainDb, adaptive);
    // At the level the master will play at (loudness-matched to the original, as playMastered does).
    const level = matchedGains(originalLufs ?? Number.NaN, targetLufs).master;
    try {
      await player.playOriginal(source.buffer, { settings, gainDb }, null, player.position(), level);
      if (this.#ctx.state().status?.running) this.#ctx.set({ playing: 'original', hearingLive: true });
      // The render beat the worklet to it (a short track): the master itself takes over now.
      else if (currentResult(this.#ctx.state())) void this.playMastered(player.position());
    } catch {
      this.#ctx.set({ playing: null, hearingLive: false });
      deps.notify(NOTICES.originalPlayback);
    }
  }

  /** The current master, from `offset` seconds (a hand-over from the live chain starts mid-track). */
  async playMastered(offset = 0): Promise<void> {
    const { deps, player } = this.#ctx;
    const state = this.#ctx.state();
    const result = currentResult(state);
    const name = setupName(state);
    if (!result) return deps.notify(NOTICES.noMasteredAudio(name));
    if (state.playAs.kind !== 'master') return this.playAs(state.playAs);
    try {
      const original = state.source?.analysis?.loudness.integratedLufs ?? Number.NaN;
      await player.playMastered(result.buffer, state.source?.buffer ?? null, {
        muted: deps.previewMode(),
        matched: matchedGains(
          original,
          result.analysis?.loudness.integratedLufs ?? result.report.predictedLufs,
        ),
        offset,
      });
      this.#ctx.set({ playing: 'mastered', hearingLive: false });
    } catch {
      this.#ctx.set({ playing: null, hearingLive: false });
      deps.notify(NOTICES.masteredPlayback(name));
    }
  }

  /**
   * Plays the master as `choice` (a platform's gain live, Spotify Loud's limiter, a codec's decoded file),
   * from where playback is now, with the original loudness-matched to what the listener would hear.
   */
  async playAs(choice: PlayAs): Promise<void> {
    const { deps, player } = this.#ctx;
    const state = this.#ctx.state();
    const result = currentResult(state);
    const source = state.source;
    const name = setupName(state);
    if (!result || !source) return deps.notify(NOTICES.noMasteredAudio(name));
    this.#ctx.set({ playAs: choice });
    // Back to the master while nothing plays: the next Play plays it.
    if (choice.kind === 'master' && this.#ctx.state().playing !== 'mastered') return;
    const measured = result.analysis?.loudness;
    if (!measured) return deps.notify(NOTICES.stillMeasuring);
    const originalLufs = source.analysis?.loudness.integratedLufs ?? Number.NaN;
    let buffer = result.buffer;
    let gainDb = 0;
    let matched: { original: number; master: number };
    const key = variantKeyOf(choice);
    if (choice.kind === 'master') matched = matchedGains(originalLufs, measured.integratedLufs);
    else if (key) {
      const variant = await this.#variants.make(key, result, measured);
      if (!variant || !samePlayAs(this.#ctx.state().playAs, choice)) return;
      buffer = variant.buffer;
      // A platform's level is the point of its preview: the original comes up or down to it. A codec
      // preview is judged like the master: the louder one is turned down.
      matched =
        choice.kind === 'platform'
          ? { original: toGain(variant.lufs - originalLufs), master: 1 }
          : matchedGains(originalLufs, variant.lufs);
    } else if (choice.kind === 'platform') {
      const row = platformPlayback(platformById(choice.id), measured.integratedLufs, measured.truePeakDbtp);
      gainDb = row.gainDb;
      matched = { original: toGain(row.playedLufs - originalLufs), master: 1 };
    } else return;
    try {
      if (player.masterBuffer === buffer) player.setPlatformGain(gainDb, matched);
      else {
        const offset = this.#ctx.state().playing === 'mastered' ? player.position() : 0;
        await player.playMastered(buffer, source.buffer, {
          muted: deps.previewMode(),
          matched,
          gainDb,
          offset,
        });
      }
      this.#ctx.set({ playing: 'mastered' });
    } catch {
      this.#ctx.set({ playing: null });
      deps.notify(NOTICES.masteredPlayback(name));
    }
  }

  stop(): void {
    this.#ctx.player.stop();
    this.#ctx.set({ playing: null, hearingLive: false });
  }

  setListen(listen: Listen): void {
    this.#ctx.player.setListen(listen);
    this.#ctx.set({ listen });
  }

  toggleListen(): void {
    this.setListen(this.#ctx.state().listen === 'master' ? 'original' : 'master');
  }

  setVolume(volume: number): void {
    this.#ctx.player.setVolume(volume);
    this.#ctx.set({ volume });
  }

  /** Live preview on or off: a playing original starts again through (or around) the live chain. */
  setLivePreview(on: boolean): void {
    this.#ctx.set({ livePreview: on });
    if (this.#ctx.state().playing === 'original') void this.playOriginal();
  }
}
