/**
 * One album track's Live preview (issue 31: "everything the single-track page offers ... per track"): the
 * track's original through the single page's live engine (MasteringPlayer's mastering-chain worklet, its
 * loudness gain planned by the same LiveGainPlanner), under that track's album plan (its loudness target
 * and tone) with its manual sliders. One track is live at a time; the record's player and this one stop
 * each other, so one thing plays.
 */
import { LiveGainPlanner } from '../controls/live-gain';
import { adaptivePlanFor } from '../engine/engine-api';
import { canUseManual } from '../mastering-rules';
import { NOTICES } from '../mastering-texts';
import { MasteringPlayer } from '../player/mastering-player';
import type { AlbumPlan } from './album-engine';
import { albumTrackJob } from './album-rules';
import type { AlbumContext } from './album-store';
import { ALBUM_NOTICES } from './album-texts';

export class AlbumTrackLive {
  #ctx: AlbumContext;
  /** The plan to use before Master Album made one (the plan the first master would take); null: none yet. */
  #plan: () => AlbumPlan | null;
  #stopOthers: () => void;
  #planner = new LiveGainPlanner();
  /** The single page's player: its live chain, and the meter's reading of what it plays. */
  readonly player = new MasteringPlayer();

  constructor(ctx: AlbumContext, peers: { plan: () => AlbumPlan | null; stopOthers: () => void }) {
    this.#ctx = ctx;
    this.#plan = peers.plan;
    this.#stopOthers = peers.stopOthers;
    this.player.onEnded = () => this.#ctx.set({ live: null });
  }

  /** Live preview of track `key` on (its original starts through the chain) or off (it stops). */
  async setLive(key: string, on: boolean): Promise<void> {
    if (!on) {
      if (this.#ctx.state().live === key) this.stop();
      return;
    }
    if (!canUseManual(this.#ctx.deps.user())) return this.#ctx.deps.notify(NOTICES.unlimitedRequired);
    const job = this.#job(key);
    const track = this.#ctx.state().tracks.find((t) => t.key === key);
    if (!track?.manual) return;
    // Until every track is loaded and analysed there is no album plan (this track's loudness and tone):
    // said, rather than a toggle that does nothing.
    if (!job || !track.buffer) return this.#ctx.deps.notify(ALBUM_NOTICES.notReady);
    this.#stopOthers();
    this.#planner.reset();
    this.#ctx.set({ live: key });
    this.sync(key);
    try {
      const gainDb = this.#planner.gainDb(job.settings, job.targetLufs, track.analysis?.integratedLufs);
      await this.player.playOriginal(track.buffer, { settings: job.settings, gainDb });
    } catch {
      this.#ctx.set({ live: null });
      this.#ctx.deps.notify(NOTICES.originalPlayback);
    }
  }

  /** Track `key`'s sliders moved: the live chain follows them if that track is the one live. */
  sync(key: string): void {
    const state = this.#ctx.state();
    if (state.live !== key) return;
    const job = this.#job(key);
    const track = state.tracks.find((t) => t.key === key);
    // Back to automatic (no sliders of its own): its Live preview ends, as on the single page.
    if (!job || !track?.buffer) {
      this.stop();
      return;
    }
    const originalLufs = track.analysis?.integratedLufs;
    // The plan's tone at once (as the render plans it), then the worker's planned gain for these sliders.
    const adaptive = track.analysis
      ? adaptivePlanFor(track.analysis, track.buffer.numberOfChannels, job.tone)
      : null;
    this.player.updateLive(
      job.settings,
      this.#planner.gainDb(job.settings, job.targetLufs, originalLufs),
      adaptive,
    );
    const tone = track.analysis ? { choice: job.tone, analysis: track.analysis } : null;
    const buffer = track.buffer;
    this.#planner.schedule(buffer, job.settings, job.targetLufs, tone, (gainDb, planned) => {
      const now = this.#ctx.state();
      if (now.live === key && now.tracks.find((t) => t.key === key)?.buffer === buffer)
        this.player.updateLive(job.settings, gainDb, planned);
    });
  }

  stop(): void {
    this.#planner.cancel();
    this.player.stop();
    if (this.#ctx.state().live !== null) this.#ctx.set({ live: null });
  }

  dispose(): void {
    this.#planner.cancel();
    this.player.dispose();
  }

  /** What track `key` would be rendered with now: its sliders under the album plan (null: no plan yet). */
  #job(key: string) {
    const track = this.#ctx.state().tracks.find((t) => t.key === key);
    if (!track?.manual) return null;
    let plan: AlbumPlan | null;
    try {
      plan = this.#ctx.state().plan ?? this.#plan();
    } catch {
      plan = null;
    }
    return plan ? albumTrackJob(plan, key, track.manual) : null;
  }
}
