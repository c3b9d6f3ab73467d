/**
 * Mastering the album (issue 31): one plan for the record (albumcore's planAlbum: the genre and preset,
 * per-track loudness and tone), then every track through the single page's render (the same workers,
 * progress and cancel), one after another. A change of genre, preset or tracks drops the masters.
 */
import type { Genre } from '../../../../shared/genres';
import { classifyFailure, type JobOutput, measureSource, runMasterJob } from '../engine/master-job';
import { PRESETS, type PresetId } from '../mastering-constants';
import { type LoadedStems, loadMixStems } from '../source/mix-stems';
import { fetchTrackView } from '../source/track-fetch';
import { runVersionsJob } from '../versions/versions-job';
import { type AlbumPlan, planAlbum } from './album-engine';
import { albumTrackJob, MIN_ALBUM_TRACKS } from './album-rules';
import type { AlbumMaster, AlbumTrack } from './album-state';
import type { AlbumContext } from './album-store';
import { ALBUM_NOTICES } from './album-texts';
import { whyOfTrack } from './album-why';

export class AlbumMasterController {
  #ctx: AlbumContext;
  #job: AbortController | null = null;
  /** Called when the masters are dropped (their platform and codec versions stop being made). */
  #dropped: () => void;

  constructor(ctx: AlbumContext, dropped: () => void) {
    this.#ctx = ctx;
    this.#dropped = dropped;
  }

  setDetails(patch: { record?: string; artist?: string }): void {
    this.#ctx.set(patch);
  }

  setGenre(genre: Genre | null): void {
    this.#ctx.set({ genre });
    this.#drop();
  }

  /** Mixes master from their stems with their versions (for the download), or as files. */
  setWithVersions(on: boolean): void {
    this.#ctx.set({ withVersions: on });
    this.#drop();
  }

  setPreset(preset: PresetId): void {
    this.#ctx.set({ preset });
    this.#drop();
  }

  /** The plan for the tracks as they are now (every one analysed), or null. */
  plan(): AlbumPlan | null {
    const { tracks, preset, genre } = this.#ctx.state();
    if (tracks.length < MIN_ALBUM_TRACKS || tracks.some((t) => !t.analysis)) return null;
    return planAlbum({
      tracks: tracks.map((t) => ({
        id: t.key,
        analysis: t.analysis!,
        ...(t.distanceLu === null ? {} : { distanceLu: t.distanceLu }),
      })),
      preset,
      genre: genre ?? undefined,
    });
  }

  async masterAll(): Promise<void> {
    const { tracks, preset } = this.#ctx.state();
    if (tracks.length < MIN_ALBUM_TRACKS) return this.#ctx.deps.notify(ALBUM_NOTICES.tooFew);
    if (tracks.some((t) => t.load.status !== 'ready' || !t.buffer)) {
      return this.#ctx.deps.notify(ALBUM_NOTICES.notReady);
    }
    let plan: AlbumPlan | null;
    try {
      plan = this.plan();
    } catch (error) {
      // The plan refuses (e.g. a silent track): said as a failed master, nothing rendered.
      return this.#ctx.deps.notify(
        ALBUM_NOTICES.masterFailed(error instanceof Error ? error.message : String(error)),
      );
    }
    if (!plan) return this.#ctx.deps.notify(ALBUM_NOTICES.notReady);
    this.abort();
    this.#dropped();
    const controller = new AbortController();
    this.#job = controller;
    const name = PRESETS[preset].name;
    this.#ctx.set({
      masters: {},
      plan,
      render: { running: true, index: 0, percent: 0, message: '', error: null },
    });
    try {
      for (const [index, track] of tracks.entries()) {
        const master = await this.#masterOne(track, plan, index, tracks.length, name, controller.signal);
        this.#ctx.set({ masters: { ...this.#ctx.state().masters, [track.key]: master } });
      }
      this.#ctx.set({
        render: {
          running: false,
          index: tracks.length,
          percent: 100,
          message: `${name} album mastering complete!`,
          error: null,
        },
      });
      this.#ctx.deps.notify(ALBUM_NOTICES.mastered(tracks.length));
    } catch (error) {
      const failure = classifyFailure(error, controller.signal);
      const message =
        failure.kind === 'aborted'
          ? 'Cancelled'
          : failure.kind === 'effects'
            ? failure.message
            : 'The mastering worker stopped';
      const render = this.#ctx.state().render;
      this.#ctx.set({
        render: { ...(render ?? { index: 0, percent: 0 }), running: false, message, error: message },
      });
      if (failure.kind !== 'aborted') this.#ctx.deps.notify(ALBUM_NOTICES.masterFailed(message));
    } finally {
      if (this.#job === controller) this.#job = null;
    }
  }

  /** Renders one track; `alone`: the only track rendered now (a manual change), so the bar is its own. */
  async #masterOne(
    track: AlbumTrack,
    plan: AlbumPlan,
    index: number,
    count: number,
    name: string,
    signal: AbortSignal,
    alone = false,
  ): Promise<AlbumMaster> {
    // The track's own sliders on Unlimited; its loudness and tone are the plan's either way.
    const job = albumTrackJob(plan, track.key, track.manual);
    if (!job) throw new Error(`The plan has no track ${index + 1}`);
    const spec = { settings: job.settings, targetLufs: job.targetLufs, tone: job.tone, name };
    // Only when asked for: five versions of a mix are five more copies of it in the page (issue 18).
    const withVersions = this.#ctx.state().withVersions && track.mix && track.trackId !== null;
    const stems = withVersions ? await this.#stemsOf(track.trackId!, signal) : null;
    const onStatus = (status: { percent: number; message: string }) =>
      this.#ctx.set({
        render: {
          running: true,
          index,
          percent: alone ? status.percent : Math.round(((index + status.percent / 100) / count) * 100),
          message: alone
            ? `Track ${index + 1}: ${status.message}`
            : `Track ${index + 1} of ${count}: ${status.message}`,
          error: null,
        },
      });
    // A mix masters from its stems: its Main (the album's track) and its versions with the Main's gains.
    const output: JobOutput = stems
      ? await runVersionsJob(stems, spec, onStatus, signal)
      : await runMasterJob(
          track.buffer!,
          { ...spec, inputAnalysis: track.analysis ?? undefined },
          onStatus,
          signal,
        );
    const trackPlan = plan.tracks[index]!;
    const master: AlbumMaster = {
      buffer: output.buffer,
      report: output.report,
      targetLufs: job.targetLufs,
      measuredLufs: null,
      why: whyOfTrack(plan, trackPlan, output.report),
      settings: job.settings,
      analysis: null,
      original: null,
      variants: {},
      versions: output.versions ?? null,
    };
    // The meter worker's reading of the master (shown beside the plan's target), then of the track that went
    // in (the why panel compares the two), in the background: the next track renders meanwhile.
    output.details
      .then(({ analysis }) => {
        this.#patch(track.key, output.buffer, { analysis, measuredLufs: analysis.loudness.integratedLufs });
        return measureSource(track.buffer!, signal);
      })
      .then((original) => this.#patch(track.key, output.buffer, { original }))
      .catch(() => undefined);
    return master;
  }

  /**
   * The stems of saved mix `id`, rendered again from its sources for this render only (kept, a mix's stems
   * are three copies of it); null when they cannot be had (a source deleted): it masters as a file.
   */
  #stemsOf(id: number, signal: AbortSignal): Promise<LoadedStems | null> {
    return fetchTrackView(id, signal)
      .then((view) => (view.arrangement ? loadMixStems(view.arrangement, { signal }) : null))
      .catch(() => null);
  }

  /** Changes one track's master, if it is still the one made from `buffer`. */
  #patch(key: string, buffer: AudioBuffer, patch: Partial<AlbumMaster>): void {
    const now = this.#ctx.state().masters[key];
    if (now?.buffer !== buffer) return;
    this.#ctx.set({ masters: { ...this.#ctx.state().masters, [key]: { ...now, ...patch } } });
  }

  /**
   * Masters track `key` again alone, with its manual sliders, under the plan the others were made with (a
   * manual change re-plans that track only: its loudness and tone stay the album's).
   */
  async remaster(key: string): Promise<void> {
    const { tracks, plan, preset, render } = this.#ctx.state();
    const index = tracks.findIndex((t) => t.key === key);
    const track = tracks[index];
    if (!plan || !track?.buffer || render?.running) return;
    this.abort();
    const controller = new AbortController();
    this.#job = controller;
    const name = PRESETS[preset].name;
    try {
      const master = await this.#masterOne(track, plan, index, tracks.length, name, controller.signal, true);
      // Only that track's versions go (they were made from the master it replaces).
      this.#ctx.set({ masters: { ...this.#ctx.state().masters, [key]: master } });
      this.#ctx.set({
        render: {
          running: false,
          index: tracks.length,
          percent: 100,
          message: `Track ${index + 1} mastered again with its own settings`,
          error: null,
        },
      });
    } catch (error) {
      const failure = classifyFailure(error, controller.signal);
      const message = failure.kind === 'effects' ? failure.message : 'The mastering worker stopped';
      this.#ctx.set({
        render: {
          running: false,
          index,
          percent: 0,
          message: failure.kind === 'aborted' ? 'Cancelled' : message,
          error: message,
        },
      });
      if (failure.kind !== 'aborted') this.#ctx.deps.notify(ALBUM_NOTICES.masterFailed(message));
    } finally {
      if (this.#job === controller) this.#job = null;
    }
  }

  cancel(): void {
    this.abort();
  }

  abort(): void {
    this.#job?.abort();
    this.#job = null;
  }

  #drop(): void {
    this.abort();
    this.#dropped();
    this.#ctx.set({ masters: {}, plan: null, render: null });
  }
}
