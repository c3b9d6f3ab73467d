/**
 * The mastering screen's engine-side owner of state (DESIGN: the engine owns state, React subscribes with
 * useSyncExternalStore). It holds the one snapshot and the one player and composes the panels' controllers
 * (decision 210); every action is a user intent on a controller (`store.source.loadFile(...)`), and toasts
 * are raised through `notify`.
 */
import { CodecController } from './codec/codec-controller';
import { ControlsController } from './controls/controls-controller';
import { GenreController } from './genre/genre-controller';
import { MasterController } from './mastered/master-controller';
import {
  currentResult,
  initialState,
  initialVocalSpace,
  type MasteringState,
  type MasterResult,
} from './mastering-state';
import type { PanelContext, StoreDeps } from './panel-context';
import { MasteringPlayer } from './player/mastering-player';
import { PLAY_MASTER } from './player/play-as';
import { PlaybackController } from './player/playback-controller';
import { VariantRenders } from './player/variant-renders';
import { ReferenceController } from './reference/reference-controller';
import { SourceController } from './source/source-controller';
import { VocalSpaceController } from './vocal-space/vocal-space-controller';

export class MasteringStore {
  #state = initialState();
  #listeners = new Set<() => void>();
  readonly player = new MasteringPlayer();
  readonly controls: ControlsController;
  readonly reference: ReferenceController;
  readonly genre: GenreController;
  readonly vocalSpace: VocalSpaceController;
  #variants: VariantRenders<MasterResult>;
  readonly playback: PlaybackController;
  readonly codec: CodecController;
  readonly source: SourceController;
  readonly mastering: MasterController;

  constructor(deps: StoreDeps) {
    const ctx: PanelContext = {
      deps,
      player: this.player,
      state: () => this.#state,
      set: (patch) => this.#set(patch),
    };
    this.controls = new ControlsController(ctx);
    this.reference = new ReferenceController(ctx, this.controls);
    this.genre = new GenreController(ctx, this.controls);
    this.vocalSpace = new VocalSpaceController(ctx);
    const variants = new VariantRenders<MasterResult>((result, key, state) => {
      const results = ctx.state().results;
      const now = results[result.key];
      if (now?.buffer !== result.buffer) return;
      ctx.set({
        results: { ...results, [result.key]: { ...now, variants: { ...now.variants, [key]: state } } },
      });
    });
    this.#variants = variants;
    const { controls, vocalSpace } = this;
    this.playback = new PlaybackController(ctx, { controls, vocalSpace, variants });
    this.codec = new CodecController(ctx, variants);
    this.source = new SourceController(ctx, {
      clear: () => this.clear(),
      renderChoice: () => controls.renderChoice(),
    });
    const { source, playback } = this;
    this.mastering = new MasterController(ctx, { source, controls, vocalSpace, playback });
  }

  getState = (): MasteringState => this.#state;
  subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  #set(patch: Partial<MasteringState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const fn of this.#listeners) fn();
  }

  /** The master of the current setup, if made (the panels that show a master read it). */
  current(): MasterResult | null {
    return currentResult(this.#state);
  }

  /** 'Upload different file': every mastered result goes, playback resets (spec 4). */
  clear(): void {
    this.source.abort();
    this.mastering.abort();
    this.#variants.reset();
    this.controls.resetLive();
    this.vocalSpace.cancel();
    this.player.stop();
    this.player.setVocalSpace(null);
    this.#set({
      source: null,
      results: {},
      status: null,
      playing: null,
      loading: null,
      listen: 'master',
      playAs: PLAY_MASTER,
      vocalSpace: initialVocalSpace(),
      genre: null,
    });
  }

  dispose(): void {
    this.source.abort();
    this.mastering.abort();
    this.#variants.abort();
    this.player.dispose();
  }
}
