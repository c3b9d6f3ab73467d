/**
 * Master Track (spec 4): one render of the current setup, from the stems when the source is a mixer mix
 * (every version through the same master, issue 18), else from the file with the simplified chain as the
 * fallback. While the original plays, the live chain bridges the wait (click to sound, decision 142).
 */
import type { ControlsController } from '../controls/controls-controller';
import { masteringStatus } from '../engine/engine-api';
import { classifyFailure, type MasterOutcome, masterWithFallback } from '../engine/master-job';
import { canUseManual, resultKey, setupName } from '../mastering-rules';
import type { MasteringState, MasterResult } from '../mastering-state';
import { NOTICES, TEXT } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import type { PlaybackController } from '../player/playback-controller';
import type { SourceController } from '../source/source-controller';
import { runVersionsJob } from '../versions/versions-job';
import type { VocalSpaceController } from '../vocal-space/vocal-space-controller';

export interface MasterPeers {
  source: SourceController;
  controls: ControlsController;
  vocalSpace: VocalSpaceController;
  playback: PlaybackController;
}

export class MasterController {
  #ctx: PanelContext;
  #peers: MasterPeers;
  #job: AbortController | null = null;

  constructor(ctx: PanelContext, peers: MasterPeers) {
    this.#ctx = ctx;
    this.#peers = peers;
  }

  async master(): Promise<void> {
    const { deps, player } = this.#ctx;
    const { controls, playback } = this.#peers;
    const source = this.#ctx.state().source;
    if (!source) return deps.notify(NOTICES.noAudioLoaded);
    if (this.#ctx.state().status?.running) return;
    if (this.#ctx.state().mode === 'manual') {
      // The plan is the server's: ask again before a manual render.
      const user = await deps.refreshUser().catch(() => null);
      if (!canUseManual(user)) {
        this.#ctx.set({ mode: 'automatic' });
        return deps.notify(NOTICES.unlimitedRequired);
      }
    }
    const loudness = source.analysis?.loudness.integratedLufs;
    if (source.buffer.length === 0 || loudness === Number.NEGATIVE_INFINITY)
      return deps.notify(NOTICES.noAudio);
    const state = this.#ctx.state();
    const setup = { ...state, settings: state.custom };
    const { settings, targetLufs, tone } = controls.renderChoice();
    const name = setupName(setup);
    const key = resultKey(setup);
    const controller = new AbortController();
    this.#job = controller;
    const onStatus = (status: MasteringState['status']) => {
      if (!controller.signal.aborted) this.#ctx.set({ status });
    };
    const pendingStems = this.#peers.source.stems;
    // Click to sound (decision 142): while the original plays, the live chain (the render's kernels in the
    // AudioWorklet, with the load-time analysis's plan) takes over at once where the playhead is, and the
    // finished render takes over from it. Not in preview mode (the live path has no mute windows), nor for a
    // mix mastered from its stems (its live chain would need the stems and the vocal space carve).
    const listening = state.playing === 'original' && !deps.previewMode() && !pendingStems;
    if (listening) void playback.listenWhileRendering(source, settings, targetLufs);
    const spec = { settings, targetLufs, name, tone };
    // A mixer mix masters from its stems, so its versions share the Main's gains (issue 18).
    // The first status is set before any await, while the click is still being handled, so React commits it
    // at once: set later, it could be folded into the workers' next stage and never be shown (spec 4 says
    // the sequence starts with it).
    // With Vocal space on, a mix's first step is the beat's carve, which names itself.
    const firstMessage =
      pendingStems && source.stems.status === 'loading'
        ? TEXT.versionsLoading
        : pendingStems && state.vocalSpace.amount > 0
          ? TEXT.vocalSpaceCarving
          : masteringStatus('analysing', name).message;
    onStatus({ percent: 0, message: firstMessage, running: true });
    const loaded = pendingStems ? await pendingStems : null;
    const stems = loaded
      ? await this.#peers.vocalSpace.carvedForMaster(loaded, onStatus, controller.signal)
      : null;
    if (loaded && !stems) return;
    const outcome = stems
      ? await runVersionsJob(stems, spec, onStatus, controller.signal).then(
          (output): MasterOutcome => ({ ok: true, output, simplified: false }),
          (error): MasterOutcome => ({ ok: false, failure: classifyFailure(error, controller.signal) }),
        )
      : await masterWithFallback(
          source.buffer,
          {
            ...spec,
            inputAnalysis: source.track ?? undefined,
            // The meter's reading of the original at load (measureBandLevels of the same samples): the render
            // does not measure them again, and the front helps the loudness solve all through (decision 307).
            inputBands: source.analysis?.bands.length ? source.analysis.bands : undefined,
          },
          onStatus,
          controller.signal,
        );
    if (!outcome.ok) {
      const { failure } = outcome;
      // No master to hand over to: the original plays on as it was, from where it is.
      const now = this.#ctx.state();
      if (now.hearingLive && now.source === source) void playback.playOriginal(player.position());
      if (failure.kind === 'aborted') return;
      this.#ctx.set({ status: null });
      if (failure.kind === 'init') return deps.notify(NOTICES.initError);
      if (failure.kind === 'crashed') return deps.notify(NOTICES.processingError);
      return deps.notify(NOTICES.masteringFailed(name, failure.message));
    }
    const { output, simplified } = outcome;
    if (controller.signal.aborted || this.#ctx.state().source !== source) return;
    const result: MasterResult = {
      key,
      name,
      targetLufs,
      settings,
      simplified,
      buffer: output.buffer,
      report: output.report,
      overview: null,
      analysis: null,
      variants: {},
      versions: output.versions ?? null,
    };
    const before = this.#ctx.state();
    const handOver = listening && before.hearingLive && before.playing === 'original';
    if (before.playing === 'mastered') playback.stop();
    this.#ctx.set({
      results: { ...this.#withoutVersions(result), [key]: result },
      status: { percent: 100, message: `${name} mastering complete!`, running: false },
    });
    if (handOver) void playback.playMastered(player.position());
    deps.notify(simplified ? NOTICES.masteringWarning : NOTICES.masteringComplete(name));
    try {
      const details = await output.details;
      const results = this.#ctx.state().results;
      if (results[key] === result)
        this.#ctx.set({ results: { ...results, [key]: { ...result, ...details } } });
    } catch {
      // Aborted by a new file, or the meter failed: the master stays playable without its numbers.
    }
  }

  /**
   * Issue 18: five versions of a long master are hundreds of MB in the page, so only the newest master
   * keeps its versions; an earlier preset's result plays and downloads its Main, and mastering it again
   * brings its versions back (the panel says which are not mastered).
   */
  #withoutVersions(newest: MasterResult): Record<string, MasterResult> {
    const results = this.#ctx.state().results;
    if (!newest.versions) return results;
    return Object.fromEntries(
      Object.entries(results).map(([k, r]) => [k, r.versions ? { ...r, versions: null } : r]),
    );
  }

  /** Stops the render in progress (a new file, or the screen goes). */
  abort(): void {
    this.#job?.abort();
  }
}
