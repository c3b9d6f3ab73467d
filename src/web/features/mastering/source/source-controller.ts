/**
 * The source panel's actions: a file, a track from the mixer (`?trackId=`) or a demo becomes the source,
 * measured once loaded; a mixer mix also brings its stems back (issue 18), which the versions need.
 */
import { analyseSource, type MasterJobSpec, primeMastering, warmUpMastering } from '../engine/master-job';
import { isAllowedAudio } from '../mastering-rules';
import type { SourceState, StemsState } from '../mastering-state';
import { NOTICES } from '../mastering-texts';
import type { PanelContext } from '../panel-context';
import { decodeRequest, fileRequest, type LoadRequest, trackRequest, urlRequest } from './load-requests';
import { type LoadedStems, loadMixStems } from './mix-stems';

export interface SourcePeers {
  /** 'Upload different file': the whole screen starts again (the store resets every panel). */
  clear: () => void;
  /** The chain a render would use now, for the warm-up render of a freshly loaded file. */
  renderChoice: () => Omit<MasterJobSpec, 'name' | 'inputAnalysis'>;
}

export class SourceController {
  #ctx: PanelContext;
  #peers: SourcePeers;
  #load: AbortController | null = null;
  /** The stems being loaded for the current source (issue 18); null for a single file. */
  #stems: Promise<LoadedStems | null> | null = null;

  constructor(ctx: PanelContext, peers: SourcePeers) {
    this.#ctx = ctx;
    this.#peers = peers;
  }

  /** The current mix's stems as they load (null for a single file): Master Track waits for them. */
  get stems(): Promise<LoadedStems | null> | null {
    return this.#stems;
  }

  async loadFile(file: File): Promise<void> {
    if (!isAllowedAudio(file)) return this.#ctx.deps.notify(NOTICES.invalidFile);
    await this.load(fileRequest(file));
  }

  loadTrack = (rawId: string) => this.load(trackRequest(rawId));
  loadUrl = (name: string, url: string) => this.load(urlRequest(name, url));

  async load(request: LoadRequest): Promise<void> {
    this.#peers.clear();
    const controller = new AbortController();
    this.#load = controller;
    this.#ctx.set({ loading: request.label });
    // The render's workers warm up on generated music while the file is read, decoded and measured.
    primeMastering(this.#peers.renderChoice());
    try {
      const { name, buffer, arrangement, trackId } = await decodeRequest(request, controller.signal);
      if (controller.signal.aborted) return;
      const stems: StemsState = arrangement ? { status: 'loading', fraction: 0 } : { status: 'none' };
      this.#ctx.set({
        loading: null,
        source: { name, trackId, buffer, overview: null, analysis: null, track: null, arrangement, stems },
      });
      this.#ctx.deps.notify(request.success(name));
      this.#stems = arrangement ? this.#loadStems(buffer, arrangement, controller.signal) : null;
      const measured = await analyseSource(buffer, controller.signal);
      const source = this.#ctx.state().source;
      if (source?.buffer === buffer) this.#ctx.set({ source: { ...source, ...measured } });
      // A mix masters from its stems on another path; a single file readies the render it will use.
      if (!arrangement)
        void warmUpMastering(buffer, this.#peers.renderChoice(), controller.signal, measured.track);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.#ctx.set({ loading: null });
      if (!this.#ctx.state().source)
        this.#ctx.deps.notify(request.failure(error instanceof Error ? error.message : undefined));
    }
  }

  /** Issue 18: the mix's stems, rendered again from its sources; the versions panel follows the progress. */
  async #loadStems(
    buffer: AudioBuffer,
    arrangement: NonNullable<SourceState['arrangement']>,
    signal: AbortSignal,
  ): Promise<LoadedStems | null> {
    const patch = (stems: StemsState) => {
      const source = this.#ctx.state().source;
      if (source?.buffer === buffer) this.#ctx.set({ source: { ...source, stems } });
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

  /** Stops a load in progress and forgets the stems (a new file, or the screen goes). */
  abort(): void {
    this.#load?.abort();
    this.#stems = null;
  }
}
