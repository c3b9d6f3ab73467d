/**
 * The mastering screen's engine-side owner of state (DESIGN: the engine owns state, React subscribes with
 * useSyncExternalStore). Every action here is a user intent; toasts are raised through `notify`.
 */
import type { PublicUser } from '../../../shared/api/user';
import { adaptivePlanFor, type ToneChoice } from './engine-api';
import { LiveGainPlanner } from './live-gain';
import { decodeRequest, fileRequest, type LoadRequest, trackRequest, urlRequest } from './load-requests';
import { analyseSource, masterClient, masterWithFallback } from './master-job';
import {
  DEFAULT_CUSTOM_SETTINGS,
  type MasteringMode,
  type MasteringSettings,
  type PresetId,
} from './mastering-constants';
import { type Listen, MasteringPlayer } from './mastering-player';
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
  type MasteringState,
  type MasterResult,
  type SourceState,
  shownSettings,
} from './mastering-state';
import { NOTICES, type Notice } from './mastering-texts';

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
  readonly player = new MasteringPlayer();
  #live = new LiveGainPlanner();

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
      const { name, buffer } = await decodeRequest(request, controller.signal);
      if (controller.signal.aborted) return;
      this.#set({ loading: null, source: { name, buffer, overview: null, analysis: null, track: null } });
      this.#deps.notify(request.success(name));
      const measured = await analyseSource(buffer, controller.signal);
      if (this.#state.source?.buffer === buffer)
        this.#set({ source: { ...this.#state.source, ...measured } });
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#set({ loading: null });
      if (!this.#state.source)
        this.#deps.notify(request.failure(error instanceof Error ? error.message : undefined));
    }
  }

  /** 'Upload different file': every mastered result goes, playback resets (spec 4). */
  clear(): void {
    this.#load?.abort();
    this.#job?.abort();
    this.#live.reset();
    this.player.stop();
    this.#set({ source: null, results: {}, status: null, playing: null, loading: null, listen: 'master' });
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
    const { settings } = resolveSetup(setup);
    const targetLufs = this.targetLufs();
    const name = setupName(setup);
    const key = resultKey(setup);
    const controller = new AbortController();
    this.#job = controller;
    const onStatus = (status: MasteringState['status']) => {
      if (!controller.signal.aborted) this.#set({ status });
    };
    // Click to sound (decision 142): while the original plays, the live chain (the render's kernels in the
    // AudioWorklet, with the load-time analysis's plan) takes over at once where the playhead is, and the
    // finished render takes over from it. Not in preview mode: the live path has no mute windows.
    const listening = this.#state.playing === 'original' && !this.#deps.previewMode();
    if (listening) void this.#listenWhileRendering(source, settings, targetLufs);
    const outcome = await masterWithFallback(
      source.buffer,
      { settings, targetLufs, name, tone: this.#toneChoice(), inputAnalysis: source.track ?? undefined },
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
    };
    const handOver = listening && this.#state.hearingLive && this.#state.playing === 'original';
    if (this.#state.playing === 'mastered') this.stop();
    this.#set({
      results: { ...this.#state.results, [key]: result },
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
      await this.player.playOriginal(source.buffer, live, offset);
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
      await this.player.playOriginal(source.buffer, { settings, gainDb }, this.player.position(), level);
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
    try {
      const original = this.#state.source?.analysis?.loudness.integratedLufs ?? Number.NaN;
      await this.player.playMastered(
        result.buffer,
        this.#state.source?.buffer ?? null,
        {
          muted: this.#deps.previewMode(),
          matched: matchedGains(
            original,
            result.analysis?.loudness.integratedLufs ?? result.report.predictedLufs,
          ),
        },
        offset,
      );
      this.#set({ playing: 'mastered', hearingLive: false });
    } catch {
      this.#set({ playing: null, hearingLive: false });
      this.#deps.notify(NOTICES.masteredPlayback(name));
    }
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
    this.player.dispose();
  }
}
