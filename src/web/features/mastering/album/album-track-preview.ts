/**
 * One album track's master as a platform or a codec plays it (issue 31: "platform and codec preview ... per
 * track"): the single page's versions (VariantRenders: Spotify Loud's limiter, MP3 320 and AAC 256 decoded
 * back) made once per track's master, and played alone through the album's player at the platform's gain.
 */
import type { PreviewCodec } from '../engine/engine-api';
import { NOTICES } from '../mastering-texts';
import { type PlayAs, platformGainDb, variantKeyOf } from '../player/play-as';
import { VariantRenders } from '../player/variant-renders';
import type { AlbumPlayer } from './album-player';
import type { AlbumMaster } from './album-state';
import type { AlbumContext } from './album-store';

export class AlbumTrackPreview {
  #ctx: AlbumContext;
  #player: AlbumPlayer;
  readonly variants: VariantRenders<AlbumMaster>;

  constructor(ctx: AlbumContext, player: AlbumPlayer) {
    this.#ctx = ctx;
    this.#player = player;
    // A version is kept on the track's master it was made from; a master dropped meanwhile keeps nothing.
    this.variants = new VariantRenders<AlbumMaster>((made, key, state) => {
      const masters = ctx.state().masters;
      const entry = Object.entries(masters).find(([, m]) => m.buffer === made.buffer);
      if (!entry) return;
      const [trackKey, now] = entry;
      ctx.set({
        masters: { ...masters, [trackKey]: { ...now, variants: { ...now.variants, [key]: state } } },
      });
    });
  }

  /** Plays track `key`'s master as `choice` (the master itself: the master alone). */
  async playAs(key: string, choice: PlayAs): Promise<void> {
    const master = this.#ctx.state().masters[key];
    const measured = master?.analysis?.loudness;
    if (!master) return;
    if (!measured) return this.#ctx.deps.notify(NOTICES.stillMeasuring);
    const version = variantKeyOf(choice);
    let buffer = master.buffer;
    if (version) {
      const made = await this.variants.make(version, master, measured);
      if (!made) return;
      // Another choice was made while this one rendered: that one plays.
      if (this.#ctx.state().masters[key]?.buffer !== master.buffer) return;
      buffer = made.buffer;
    }
    try {
      await this.#player.playTrack(key, buffer, platformGainDb(choice, measured), choice);
    } catch {
      this.#player.stop();
    }
  }

  /** Makes a codec preview of track `key`'s master without playing it. */
  encode(key: string, codec: PreviewCodec): void {
    const master = this.#ctx.state().masters[key];
    const measured = master?.analysis?.loudness;
    if (master && measured) void this.variants.make(codec, master, measured);
  }

  reset(): void {
    this.variants.reset();
  }

  abort(): void {
    this.variants.abort();
  }
}
