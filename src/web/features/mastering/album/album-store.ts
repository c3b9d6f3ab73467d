/**
 * The album's engine-side owner of state (issue 31; DESIGN: the engine owns state, React subscribes with
 * useSyncExternalStore). It holds the one snapshot and composes the album's controllers: the tracks (add,
 * analyse, order, names), the master (the plan and the renders), the player (continuous preview and
 * transitions) and the download. Toasts go through `notify`.
 */
import type { PublicUser } from '../../../../shared/api/user';
import type { Notice } from '../mastering-texts';
import { AlbumDownloadController } from './album-download';
import { AlbumMasterController } from './album-master';
import { AlbumPlayer } from './album-player';
import { AlbumSequenceController } from './album-sequence';
import { type AlbumState, initialAlbumState } from './album-state';
import { AlbumTrackLive } from './album-track-live';
import { AlbumTrackPreview } from './album-track-preview';
import { AlbumTracksController } from './album-tracks';

export interface AlbumDeps {
  notify: (notice: Notice) => void;
  user: () => PublicUser | null;
  /** Asks the server for the user again after a spend (the balances shown). */
  refreshUser: () => Promise<PublicUser | null>;
  devMode: () => boolean;
  /** Spec 4's preview mode (no credits or crowns): the preview is muted for 1 s every 5 s. */
  previewMode: () => boolean;
}

export interface AlbumContext {
  readonly deps: AlbumDeps;
  state(): AlbumState;
  set(patch: Partial<AlbumState>): void;
}

export class AlbumStore {
  #state = initialAlbumState();
  #listeners = new Set<() => void>();
  readonly tracks: AlbumTracksController;
  readonly master: AlbumMasterController;
  readonly player: AlbumPlayer;
  readonly sequence: AlbumSequenceController;
  readonly download: AlbumDownloadController;
  readonly preview: AlbumTrackPreview;
  readonly live: AlbumTrackLive;

  constructor(deps: AlbumDeps) {
    const ctx: AlbumContext = { deps, state: () => this.#state, set: (patch) => this.#set(patch) };
    // One thing plays: the record's player and a track's Live preview stop each other.
    this.player = new AlbumPlayer(ctx, () => this.live.stop());
    this.sequence = new AlbumSequenceController(ctx, () => this.player.stop());
    this.preview = new AlbumTrackPreview(ctx, this.player);
    this.master = new AlbumMasterController(ctx, () => this.preview.reset());
    this.live = new AlbumTrackLive(ctx, {
      plan: () => this.master.plan(),
      stopOthers: () => this.player.stop(),
    });
    this.tracks = new AlbumTracksController(ctx, {
      // Any change to the record's tracks makes its masters stale: they are dropped, the sound stops.
      invalidate: () => {
        this.master.abort();
        this.preview.reset();
        this.player.stop();
        this.live.stop();
        this.#set({ masters: {}, plan: null, render: null });
      },
      stop: () => this.player.stop(),
      manualChanged: (key) => this.live.sync(key),
    });
    this.download = new AlbumDownloadController(ctx);
  }

  getState = (): AlbumState => this.#state;
  subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  #set(patch: Partial<AlbumState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const fn of this.#listeners) fn();
  }

  dispose(): void {
    this.tracks.abort();
    this.master.abort();
    this.download.abort();
    this.preview.abort();
    this.player.dispose();
    this.live.dispose();
  }
}
