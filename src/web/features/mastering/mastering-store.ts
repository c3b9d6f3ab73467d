/**
 * The mastering screen's engine-side owner of state (DESIGN: the engine owns state, React subscribes with
 * useSyncExternalStore). Every action here is a user intent; toasts are raised through `notify`.
 */
import type { PublicUser } from '../../../shared/api/user';
import { CodecUnavailableError } from './codec/codec-preview';
import { LiveGainPlanner } from './controls/live-gain';
import { toAudioBufferInSlices } from './engine/chunked-copy';
import {
  adaptivePlanFor,
  type LoudnessReport,
  type PreviewCodec,
  platformById,
  platformPlayback,
  type ToneChoice,
} from './engine/engine-api';
import {
  analyseSource,
  classifyFailure,
  type MasterOutcome,
  masterClient,
  masterWithFallback,
  warmUpMastering,
} from './engine/master-job';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringMode,
  type MasteringSettings,
  type PresetId,
} from './mastering-constants';
import {
  canUseManual,
  isAllowedAudio,
  matchedGains,
  resolveSetup,
  resultKey,
  setupName,
  type TargetChoice,
} from './mastering-rules';
import {
  initialState,
  initialVocalSpace,
  type MasteringState,
  type MasterResult,
  type SourceState,
  type StemsState,
  shownSettings,
  type VocalSpaceState,
} from './mastering-state';
import { NOTICES, type Notice, TEXT } from './mastering-texts';
import { type Listen, MasteringPlayer } from './player/mastering-player';
import {
  PLAY_MASTER,
  type PlayAs,
  type ReadyVariant,
  renderVariant,
  samePlayAs,
  type VariantKey,
  type VariantState,
  variantKeyOf,
} from './player/play-as';
import {
  decodeRequest,
  fileRequest,
  type LoadRequest,
  trackRequest,
  urlRequest,
} from './source/load-requests';
import { type LoadedStems, loadMixStems } from './source/mix-stems';
import { runVersionsJob } from './versions/versions-job';
import { carveStems, liveVocalSpace, stemsWithBeat, VocalSpaceMeter } from './vocal-space/vocal-space-job';

const toGain = (db: number): number => (Number.isFinite(db) ? 10 ** (db / 20) : 1);

export interface StoreDeps {
  notify: (notice: Notice) => void;
  /** Asks the server for the user again: the plan that decides manual mode is the server's. */
  refreshUser: () => Promise<PublicUser | null>;
  user: () => PublicUser | null;
  /** Whether mastered playback is muted periodically for this user right now (spec 4). */
  previewMode: () => boolean;
}

export class MasteringStore {
  #state = initialState();
  #listeners = new Set<() => void>();
  #deps: StoreDeps;
  #load: AbortController | null = null;
  #job: AbortController | null = null;
  /** The running Spotify Loud / codec preview renders (aborted with the file or a new master). */
  #variantJobs = new AbortController();
  readonly player = new MasteringPlayer();
  #live = new LiveGainPlanner();
  /** The stems being loaded for the current source (issue 18); null for a single file. */
  #stems: Promise<LoadedStems | null> | null = null;
  #vocalMeter = new VocalSpaceMeter();
  /** The stems as playable buffers for the live chain, made once per loaded stems. */
  #stemBuffers = new WeakMap<LoadedStems, Promise<{ beat: AudioBuffer; vocal: AudioBuffer }>>();

  constructor(deps: StoreDeps) {
    this.#deps = deps;
    this.player.onEnded = () => this.#set({ playing: null, hearingLive: false });
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

  current(): MasterResult | null {
    return this.#state.results[resultKey(this.#state)] ?? null;
  }

  // --- loading -------------------------------------------------------------------------------------------

  async loadFile(file: File): Promise<void> {
    if (!isAllowedAudio(file)) return this.#deps.notify(NOTICES.invalidFile);
    await this.load(fileRequest(file));
  }

  loadTrack = (rawId: string) => this.load(trackRequest(rawId));
  loadUrl = (name: string, url: string) => this.load(urlRequest(name, url));

  async load(request: LoadRequest): Promise<void> {
    this.clear();
    const controller = new AbortController();
    this.#load = controller;
    this.#set({ loading: request.label });
    try {
      const { name, buffer, arrangement } = await decodeRequest(request, controller.signal);
      if (controller.signal.aborted) return;
      const stems: StemsState = arrangement ? { status: 'loading', fraction: 0 } : { status: 'none' };
      this.#set({
        loading: null,
        source: { name, buffer, overview: null, analysis: null, track: null, arrangement, stems },
      });
      this.#deps.notify(request.success(name));
      this.#stems = arrangement ? this.#loadStems(buffer, arrangement, controller.signal) : null;
      const measured = await analyseSource(buffer, controller.signal);
      if (this.#state.source?.buffer === buffer)
        this.#set({ source: { ...this.#state.source, ...measured } });
      // A mix masters from its stems on another path; a single file readies the render it will use.
      if (!arrangement) void warmUpMastering(buffer, this.#renderChoice(), controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#set({ loading: null });
      if (!this.#state.source)
        this.#deps.notify(request.failure(error instanceof Error ? error.message : undefined));
    }
  }

  /** Issue 18: the mix's stems, rendered again from its sources; the versions panel follows the progress. */
  async #loadStems(
    buffer: AudioBuffer,
    arrangement: NonNullable<SourceState['arrangement']>,
    signal: AbortSignal,
  ): Promise<LoadedStems | null> {
    const patch = (stems: StemsState) => {
      const source = this.#state.source;
      if (source?.buffer === buffer) this.#set({ source: { ...source, stems } });
    };
    try {
      const stems = await loadMixStems(arrangement, {
        signal,
        onProgress: (p) => patch({ status: 'loading', fraction: p.fraction }),
      });
      patch({ status: 'ready', stems });
      return stems;
    } catch (error) {
      if (!signal.aborted) patch({ status: 'failed', message: error instanceof Error ? error.message : '' });
      return null;
    }
  }

  /** 'Upload different file': every mastered result goes, playback resets (spec 4). */
  clear(): void {
    this.#load?.abort();
    this.#job?.abort();
    this.#variantJobs.abort();
    this.#variantJobs = new AbortController();
    this.#stems = null;
    this.#live.reset();
    this.#vocalMeter.cancel();
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
    });
  }

  // --- controls ------------------------------------------------------------------------------------------

  /** Spec 4: changing the preset resets the mode to automatic. */
  setPreset(preset: PresetId): void {
    this.#set({ preset, mode: 'automatic' });
    this.#syncLive();
  }

  setMode(mode: MasteringMode): void {
    if (mode === 'manual' && !canUseManual(this.#deps.user())) {
      this.#deps.notify(NOTICES.unlimitedRequired);
      return;
    }
    this.#set({ mode });
    this.#syncLive();
  }

  /** A slider move in automatic mode takes an Unlimited user into manual mode from the preset's values. */
  setSlider(key: keyof MasteringSettings, value: number): void {
    if (!canUseManual(this.#deps.user())) {
      this.#deps.notify(NOTICES.unlimitedRequired);
      return;
    }
    const base = this.#state.mode === 'manual' ? this.#state.custom : shownSettings(this.#state);
    this.#set({ mode: 'manual', custom: { ...base, [key]: value } });
    this.#syncLive();
  }

  resetCustom(): void {
    this.#set({ custom: { ...DEFAULT_CUSTOM_SETTINGS } });
    this.#syncLive();
  }

  setTarget(target: TargetChoice): void {
    this.#set({ target });
    this.#syncLive();
  }

  setVolume(volume: number): void {
    this.player.setVolume(volume);
    this.#set({ volume });
  }

  setLivePreview(on: boolean): void {
    this.#set({ livePreview: on });
    if (this.#state.playing === 'original') void this.playOriginal();
  }

  // --- vocal space (issue 18) ------------------------------------------------------------------------------

  /** The loaded stems of the current mix, or null (a single file, or still loading). */
  #readyStems(): LoadedStems | null {
    const stems = this.#state.source?.stems;
    return stems?.status === 'ready' ? stems.stems : null;
  }

  #setVocal(patch: Partial<VocalSpaceState>): void {
    this.#set({ vocalSpace: { ...this.#state.vocalSpace, ...patch } });
  }

  /** The Vocal space amount: heard at once in the live chain, its figure measured when the slider rests. */
  setVocalSpace(amount: number): void {
    const stems = this.#readyStems();
    if (!stems) return;
    const value = Math.min(100, Math.max(0, Math.round(amount)));
    const { profile } = this.#state.vocalSpace;
    this.player.setVocalSpace(liveVocalSpace(value, profile));
    if (value === 0) {
      this.#vocalMeter.cancel();
      this.#setVocal({ amount: 0, measuring: false });
      return;
    }
    this.#setVocal({ amount: value, measuring: true });
    this.#vocalMeter.schedule(
      stems,
      { amount: value, profile },
      (measured) => {
        if (this.#readyStems() !== stems) return;
        const current = this.#state.vocalSpace.amount;
        this.#setVocal({
          profile: measured.profile,
          clarity: { ...measured.clarity, amount: value },
          measuring: current !== value,
        });
        this.player.setVocalSpace(liveVocalSpace(current, measured.profile));
      },
      () => this.#setVocal({ measuring: false }),
    );
  }

  /** The stems as AudioBuffers for the live chain (made once, in slices). */
  #stemsToPlay(stems: LoadedStems): Promise<{ beat: AudioBuffer; vocal: AudioBuffer }> {
    let made = this.#stemBuffers.get(stems);
    if (!made) {
      made = Promise.all([
        toAudioBufferInSlices(stems.instrumental, stems.sampleRate),
        toAudioBufferInSlices(stems.vocals, stems.sampleRate),
      ]).then(([beat, vocal]) => ({ beat, vocal }));
      this.#stemBuffers.set(stems, made);
    }
    return made;
  }

  /** The gain that brings the original near the target before the limiter (the live preview's loudness). */
  #liveGainDb(): number {
    const targetLufs = this.targetLufs();
    const lufs = this.#state.source?.analysis?.loudness.integratedLufs;
    return this.#live.gainDb(this.#state.custom, targetLufs, lufs);
  }

  /** The adaptive chain's choice: the preset's curve, and the manual Tone match when moved. */
  #toneChoice(): ToneChoice {
    const { mode, preset, custom } = this.#state;
    const reference = mode === 'manual' ? (this.#state.reference?.track ?? undefined) : undefined;
    return { preset, toneMatch: mode === 'manual' ? custom.toneMatch : undefined, reference };
  }

  /** The loudness target: the reference's integrated loudness when one is matched (decision 114). */
  targetLufs(): number {
    const reference = this.#state.mode === 'manual' ? this.#state.reference?.track : null;
    if (reference && Number.isFinite(reference.integratedLufs)) return reference.integratedLufs;
    return resolveSetup({ ...this.#state, settings: this.#state.custom }).targetLufs;
  }

  /** Reference mastering (manual mode, Unlimited): same upload rules as the source. */
  async loadReference(file: File): Promise<void> {
    if (!canUseManual(this.#deps.user())) return this.#deps.notify(NOTICES.unlimitedRequired);
    if (!isAllowedAudio(file)) return this.#deps.notify(NOTICES.invalidFile);
    const request = fileRequest(file);
    this.#set({ reference: { name: file.name, track: null } });
    try {
      const { buffer } = await decodeRequest(request, new AbortController().signal);
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
      const track = await masterClient().analyse(channels, buffer.sampleRate);
      if (this.#state.reference?.name !== file.name) return;
      this.#set({ reference: { name: file.name, track }, mode: 'manual' });
      this.#syncLive();
    } catch (error) {
      this.#set({ reference: null });
      this.#deps.notify(request.failure(error instanceof Error ? error.message : undefined));
    }
  }

  clearReference(): void {
    this.#set({ reference: null });
    this.#syncLive();
  }

  #syncLive(): void {
    const { source, mode, custom } = this.#state;
    if (mode !== 'manual' || !source) return;
    this.player.updateLive(custom, this.#liveGainDb());
    const targetLufs = this.targetLufs();
    // The whole track's analysis, so the live EQ is the download's (the plan itself runs on an excerpt).
    const tone = source.track ? { choice: this.#toneChoice(), analysis: source.track } : null;
    this.#live.schedule(source.buffer, custom, targetLufs, tone, (gainDb, adaptive) => {
      if (this.#state.source === source && this.#state.mode === 'manual')
        this.player.updateLive(this.#state.custom, gainDb, adaptive);
    });
  }

  // --- mastering -----------------------------------------------------------------------------------------

  /** The chain a render would use now: the chosen preset or manual settings, target and tone. */
  #renderChoice() {
    const { settings } = resolveSetup({ ...this.#state, settings: this.#state.custom });
    return { settings, targetLufs: this.targetLufs(), tone: this.#toneChoice() };
  }

  async master(): Promise<void> {
    const source = this.#state.source;
    if (!source) return this.#deps.notify(NOTICES.noAudioLoaded);
    if (this.#state.status?.running) return;
    if (this.#state.mode === 'manual') {
      // The plan is the server's: ask again before a manual render.
      const user = await this.#deps.refreshUser().catch(() => null);
      if (!canUseManual(user)) {
        this.#set({ mode: 'automatic' });
        return this.#deps.notify(NOTICES.unlimitedRequired);
      }
    }
    const loudness = source.analysis?.loudness.integratedLufs;
    if (source.buffer.length === 0 || loudness === Number.NEGATIVE_INFINITY)
      return this.#deps.notify(NOTICES.noAudio);
    const setup = { ...this.#state, settings: this.#state.custom };
    const { settings, targetLufs, tone } = this.#renderChoice();
    const name = setupName(setup);
    const key = resultKey(setup);
    const controller = new AbortController();
    this.#job = controller;
    const onStatus = (status: MasteringState['status']) => {
      if (!controller.signal.aborted) this.#set({ status });
    };
    // Click to sound (decision 142): while the original plays, the live chain (the render's kernels in the
    // AudioWorklet, with the load-time analysis's plan) takes over at once where the playhead is, and the
    // finished render takes over from it. Not in preview mode (the live path has no mute windows), nor for a
    // mix mastered from its stems (its live chain would need the stems and the vocal space carve).
    const listening = this.#state.playing === 'original' && !this.#deps.previewMode() && !this.#stems;
    if (listening) void this.#listenWhileRendering(source, settings, targetLufs);
    const spec = { settings, targetLufs, name, tone };
    // A mixer mix masters from its stems, so its versions share the Main's gains (issue 18).
    if (this.#stems && source.stems.status === 'loading')
      onStatus({ percent: 0, message: TEXT.versionsLoading, running: true });
    const loaded = this.#stems ? await this.#stems : null;
    const stems = loaded ? await this.#carvedForMaster(loaded, onStatus, controller.signal) : null;
    if (loaded && !stems) return;
    const outcome = stems
      ? await runVersionsJob(stems, spec, onStatus, controller.signal).then(
          (output): MasterOutcome => ({ ok: true, output, simplified: false }),
          (error): MasterOutcome => ({ ok: false, failure: classifyFailure(error, controller.signal) }),
        )
      : await masterWithFallback(
          source.buffer,
          { ...spec, inputAnalysis: source.track ?? undefined },
          onStatus,
          controller.signal,
        );
    if (!outcome.ok) {
      const { failure } = outcome;
      // No master to hand over to: the original plays on as it was, from where it is.
      if (this.#state.hearingLive && this.#state.source === source)
        void this.playOriginal(this.player.position());
      if (failure.kind === 'aborted') return;
      this.#set({ status: null });
      if (failure.kind === 'init') return this.#deps.notify(NOTICES.initError);
      if (failure.kind === 'crashed') return this.#deps.notify(NOTICES.processingError);
      return this.#deps.notify(NOTICES.masteringFailed(name, failure.message));
    }
    const { output, simplified } = outcome;
    if (controller.signal.aborted || this.#state.source !== source) return;
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
    const handOver = listening && this.#state.hearingLive && this.#state.playing === 'original';
    if (this.#state.playing === 'mastered') this.stop();
    this.#set({
      results: { ...this.#withoutVersions(result), [key]: result },
      status: { percent: 100, message: `${name} mastering complete!`, running: false },
    });
    if (handOver) void this.playMastered(this.player.position());
    this.#deps.notify(simplified ? NOTICES.masteringWarning : NOTICES.masteringComplete(name));
    try {
      const details = await output.details;
      if (this.#state.results[key] === result) {
        this.#set({ results: { ...this.#state.results, [key]: { ...result, ...details } } });
      }
    } catch {
      // Aborted by a new file, or the meter failed: the master stays playable without its numbers.
    }
  }

  /**
   * Vocal space before the master bus: the versions job gets the stems with the beat carved (every version
   * carries it). At amount 0 the stems pass untouched. Null when cancelled or failed (a toast said why).
   */
  async #carvedForMaster(
    stems: LoadedStems,
    onStatus: (status: MasteringState['status']) => void,
    signal: AbortSignal,
  ): Promise<LoadedStems | null> {
    const { amount, profile } = this.#state.vocalSpace;
    if (amount === 0) return stems;
    const message = TEXT.vocalSpaceCarving;
    onStatus({ percent: 0, message, running: true });
    try {
      const carved = await carveStems(stems, { amount, profile }, signal, (f) =>
        onStatus({ percent: Math.round(f * 5), message, running: true }),
      );
      if (this.#state.vocalSpace.amount === amount)
        this.#setVocal({ profile: carved.profile, clarity: { ...carved.clarity, amount } });
      return await stemsWithBeat(stems, carved.beat, signal);
    } catch (error) {
      if (signal.aborted) return null;
      this.#set({ status: null });
      this.#deps.notify(
        NOTICES.masteringFailed(setupName(this.#state), error instanceof Error ? error.message : ''),
      );
      return null;
    }
  }

  /**
   * Issue 18: five versions of a long master are hundreds of MB in the page, so only the newest master
   * keeps its versions; an earlier preset's result plays and downloads its Main, and mastering it again
   * brings its versions back (the panel says which are not mastered).
   */
  #withoutVersions(newest: MasterResult): Record<string, MasterResult> {
    if (!newest.versions) return this.#state.results;
    return Object.fromEntries(
      Object.entries(this.#state.results).map(([k, r]) => [k, r.versions ? { ...r, versions: null } : r]),
    );
  }

  // --- playback ------------------------------------------------------------------------------------------

  /** The original (through the live chain in manual mode with live preview on), from `offset` seconds. */
  async playOriginal(offset = 0): Promise<void> {
    const source = this.#state.source;
    if (!source) return this.#deps.notify(NOTICES.noAudioLoaded);
    try {
      const live =
        this.#state.mode === 'manual' && this.#state.livePreview
          ? { settings: this.#state.custom, gainDb: this.#liveGainDb() }
          : null;
      // With stems, the live chain plays them (beat + vocal) so Vocal space is heard as the export makes it.
      const stems = live ? this.#readyStems() : null;
      await this.player.playOriginal(
        source.buffer,
        live,
        stems ? await this.#stemsToPlay(stems) : null,
        offset,
      );
      this.#set({ playing: 'original', hearingLive: false });
      // A Master Track click while listening switches to the live chain: have it ready.
      if (!live && !this.#deps.previewMode())
        this.player.prepareLive(this.#state.custom).catch(() => undefined);
    } catch {
      this.#set({ playing: null, hearingLive: false });
      this.#deps.notify(NOTICES.originalPlayback);
    }
  }

  /** The original through the live chain from where it plays now, at the render's settings and plan. */
  async #listenWhileRendering(source: SourceState, settings: MasteringSettings, targetLufs: number) {
    const channels = source.buffer.numberOfChannels;
    const adaptive = source.track ? adaptivePlanFor(source.track, channels, this.#toneChoice()) : null;
    const originalLufs = source.analysis?.loudness.integratedLufs;
    const gainDb = this.#live.gainDb(settings, targetLufs, originalLufs);
    this.player.updateLive(settings, gainDb, adaptive);
    // At the level the master will play at (loudness-matched to the original, as playMastered does).
    const level = matchedGains(originalLufs ?? Number.NaN, targetLufs).master;
    try {
      await this.player.playOriginal(
        source.buffer,
        { settings, gainDb },
        null,
        this.player.position(),
        level,
      );
      if (this.#state.status?.running) this.#set({ playing: 'original', hearingLive: true });
      // The render beat the worklet to it (a short track): the master itself takes over now.
      else if (this.current()) void this.playMastered(this.player.position());
    } catch {
      this.#set({ playing: null, hearingLive: false });
      this.#deps.notify(NOTICES.originalPlayback);
    }
  }

  /** The current master, from `offset` seconds (a hand-over from the live chain starts mid-track). */
  async playMastered(offset = 0): Promise<void> {
    const result = this.current();
    const name = setupName(this.#state);
    if (!result) return this.#deps.notify(NOTICES.noMasteredAudio(name));
    if (this.#state.playAs.kind !== 'master') return this.playAs(this.#state.playAs);
    try {
      const original = this.#state.source?.analysis?.loudness.integratedLufs ?? Number.NaN;
      await this.player.playMastered(result.buffer, this.#state.source?.buffer ?? null, {
        muted: this.#deps.previewMode(),
        matched: matchedGains(
          original,
          result.analysis?.loudness.integratedLufs ?? result.report.predictedLufs,
        ),
        offset,
      });
      this.#set({ playing: 'mastered', hearingLive: false });
    } catch {
      this.#set({ playing: null, hearingLive: false });
      this.#deps.notify(NOTICES.masteredPlayback(name));
    }
  }

  /**
   * Plays the master as `choice` (a platform's gain live, Spotify Loud's limiter, a codec's decoded file),
   * from where playback is now, with the original loudness-matched to what the listener would hear.
   */
  async playAs(choice: PlayAs): Promise<void> {
    const result = this.current();
    const source = this.#state.source;
    const name = setupName(this.#state);
    if (!result || !source) return this.#deps.notify(NOTICES.noMasteredAudio(name));
    this.#set({ playAs: choice });
    // Back to the master while nothing plays: the next Play plays it.
    if (choice.kind === 'master' && this.#state.playing !== 'mastered') return;
    const measured = result.analysis?.loudness;
    if (!measured) return this.#deps.notify(NOTICES.stillMeasuring);
    const originalLufs = source.analysis?.loudness.integratedLufs ?? Number.NaN;
    let buffer = result.buffer;
    let gainDb = 0;
    let matched: { original: number; master: number };
    const key = variantKeyOf(choice);
    if (choice.kind === 'master') matched = matchedGains(originalLufs, measured.integratedLufs);
    else if (key) {
      const variant = await this.#variant(key, result, measured);
      if (!variant || !samePlayAs(this.#state.playAs, choice)) return;
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
      if (this.player.masterBuffer === buffer) this.player.setPlatformGain(gainDb, matched);
      else {
        const offset = this.#state.playing === 'mastered' ? this.player.position() : 0;
        await this.player.playMastered(buffer, source.buffer, {
          muted: this.#deps.previewMode(),
          matched,
          gainDb,
          offset,
        });
      }
      this.#set({ playing: 'mastered' });
    } catch {
      this.#set({ playing: null });
      this.#deps.notify(NOTICES.masteredPlayback(name));
    }
  }

  /** Makes (once) and returns a version of `result`; null when it cannot be made (the state says why). */
  async #variant(
    key: VariantKey,
    result: MasterResult,
    measured: LoudnessReport,
  ): Promise<ReadyVariant | null> {
    const known = result.variants[key];
    if (known?.status === 'ready') return known;
    if (known?.status === 'working' || known?.status === 'unavailable') return null;
    const update = (state: VariantState) => {
      const now = this.#state.results[result.key];
      if (now?.buffer !== result.buffer) return;
      this.#set({
        results: {
          ...this.#state.results,
          [result.key]: { ...now, variants: { ...now.variants, [key]: state } },
        },
      });
    };
    update({ status: 'working', percent: 0 });
    try {
      const ready = await renderVariant(
        key,
        result.buffer,
        measured,
        result.report.ceilingDbtp,
        this.#variantJobs.signal,
        (f) => update({ status: 'working', percent: Math.round(f * 100) }),
      );
      update(ready);
      return ready;
    } catch (error) {
      if (this.#variantJobs.signal.aborted) return null;
      const message = error instanceof Error ? error.message : String(error);
      update(
        error instanceof CodecUnavailableError
          ? { status: 'unavailable', message }
          : { status: 'failed', message },
      );
      return null;
    }
  }

  /** Starts (or shows) a codec preview without playing it. */
  previewCodec(codec: PreviewCodec): void {
    const result = this.current();
    const measured = result?.analysis?.loudness;
    if (!result || !measured) return;
    void this.#variant(codec, result, measured);
  }

  stop(): void {
    this.player.stop();
    this.#set({ playing: null, hearingLive: false });
  }

  setListen(listen: Listen): void {
    this.player.setListen(listen);
    this.#set({ listen });
  }

  toggleListen(): void {
    this.setListen(this.#state.listen === 'master' ? 'original' : 'master');
  }

  dispose(): void {
    this.#load?.abort();
    this.#job?.abort();
    this.#variantJobs.abort();
    this.player.dispose();
  }
}
