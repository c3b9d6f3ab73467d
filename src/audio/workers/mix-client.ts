import type { PitchSettings } from '../../shared/pitch-settings';
import type { TrackType } from '../model/clip';
import { type MixStyleId, PREVIEW_ORDER } from '../model/mix-styles';
import type { SampleWindow } from '../model/preview-window';
import type { MixRenderSettings } from '../render/mix-render';
import type { MixProgress } from '../render/mix-stages';
import { copyChannelsInSlices, WORKER_COPY_SLICE } from '../sliced-copy';
import type { MixApi, MixTimeline, PitchCurveView, RenderedMix, RenderedPreview } from './mix-protocol';
import type { PauseGate } from './pause-gate';
import { RpcClient } from './worker-rpc';

/**
 * Samples the page copies per slice before a source moves to the worker: 4M-sample (16 MB) slices were the
 * page's longest tasks after a 10-minute track loaded (27-29 ms of CPU each on a quiet machine, most of it
 * the fresh array's page faults), so the worker clients' common slice.
 */
const SOURCE_CHUNK = WORKER_COPY_SLICE;

const defaultFactory = () => new Worker(new URL('./mix-worker.ts', import.meta.url), { type: 'module' });

/**
 * The page's side of the mix worker. The worker keeps the sources it was given; after a crash a fresh worker
 * starts with none, so the client sends them again. The client keeps only references to the arrays it was
 * given (an AudioBuffer's channel data may be passed and keeps playing), never a second copy.
 */
export class MixClient {
  #factory: () => Worker;
  #rpc: RpcClient<MixApi> | null = null;
  #sources: Partial<Record<TrackType, { channels: Float32Array[]; sampleRate: number }>> = {};

  readonly #chunk: number;

  constructor(factory: () => Worker = defaultFactory, options: { chunkSamples?: number } = {}) {
    this.#factory = factory;
    this.#chunk = Math.max(1, options.chunkSamples ?? SOURCE_CHUNK);
  }

  async #client(): Promise<RpcClient<MixApi>> {
    if (this.#rpc && !this.#rpc.failure) return this.#rpc;
    const rpc = new RpcClient<MixApi>(this.#factory());
    this.#rpc = rpc;
    for (const [trackType, source] of Object.entries(this.#sources) as [
      TrackType,
      { channels: Float32Array[]; sampleRate: number },
    ][]) {
      await send(rpc, trackType, source.channels, source.sampleRate, this.#chunk);
    }
    return rpc;
  }

  /**
   * Give the worker a decoded track (or null to remove it). The page may pass an AudioBuffer's own channel
   * data: it is sent as copied 16 MB slices, each transferred, so the page never blocks on one big copy.
   */
  async setSource(trackType: TrackType, channels: Float32Array[] | null, sampleRate: number): Promise<void> {
    if (channels) this.#sources[trackType] = { channels, sampleRate };
    else delete this.#sources[trackType];
    const rpc = await this.#client();
    await send(rpc, trackType, channels ?? [], sampleRate, this.#chunk);
  }

  async mixdown(
    timeline: MixTimeline,
    settings: MixRenderSettings,
    options: { signal?: AbortSignal; onProgress?: (p: MixProgress) => void } = {},
  ): Promise<RenderedMix> {
    const rpc = await this.#client();
    return rpc.call('mixdown', { timeline, settings }, options);
  }

  /** Issue 27: the vocal's detected, target and corrected pitch curves for the pitch view. */
  async pitchCurve(
    settings: PitchSettings,
    options: { signal?: AbortSignal; onProgress?: (fraction: number) => void; gate?: PauseGate } = {},
  ): Promise<PitchCurveView | null> {
    const rpc = await this.#client();
    return rpc.call('pitchCurve', { settings }, options);
  }

  /** The mixdown with its two buses, which sum to it (the mastering page's versions, issue 18). */
  async stems(
    timeline: MixTimeline,
    settings: MixRenderSettings,
    options: { signal?: AbortSignal; onProgress?: (p: MixProgress) => void } = {},
  ): Promise<MixApi['stems']['response']> {
    const rpc = await this.#client();
    return rpc.call('stems', { timeline, settings }, options);
  }

  async previews(
    timeline: MixTimeline,
    window: SampleWindow,
    outputVolume: number,
    options: {
      styles?: MixStyleId[];
      pitch?: PitchSettings;
      signal?: AbortSignal;
      onProgress?: (p: MixApi['previews']['progress']) => void;
      /** Issue 26: preview through the adaptive vocal chain for this genre. */
      genre?: MixApi['previews']['request']['genre'];
      vocalChain?: MixApi['previews']['request']['vocalChain'];
    } = {},
  ): Promise<RenderedPreview[]> {
    const rpc = await this.#client();
    const { previews } = await rpc.call(
      'previews',
      {
        timeline,
        window,
        outputVolume,
        styles: options.styles ?? [...PREVIEW_ORDER],
        genre: options.genre,
        vocalChain: options.vocalChain,
        pitch: options.pitch,
      },
      { signal: options.signal, onProgress: options.onProgress },
    );
    return previews;
  }

  /** Issue 26: the vocal's analysis over the whole timeline (progress 0..1), kept by the worker for the chain. */
  async analyseVocal(
    timeline: MixTimeline,
    genre: MixApi['analyseVocal']['request']['genre'],
    options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
  ): Promise<MixApi['analyseVocal']['response']> {
    const rpc = await this.#client();
    return rpc.call('analyseVocal', { timeline, genre }, options);
  }

  dispose(): void {
    this.#rpc?.dispose();
    this.#rpc = null;
    this.#sources = {};
  }
}

const send = async (
  rpc: RpcClient<MixApi>,
  trackType: TrackType,
  channels: Float32Array[],
  sampleRate: number,
  chunk: number,
): Promise<void> => {
  const length = channels[0]?.length ?? 0;
  await rpc.call('setSource', { trackType, channelCount: channels.length, length, sampleRate });
  for (const [channel, samples] of channels.entries()) {
    // Copied on the page a slice at a time (never one long block), into one array that then moves whole:
    // the worker keeps it as it comes instead of copying slices into an array of its own (decision 148).
    const [data] = await copyChannelsInSlices([samples], chunk);
    await rpc.call(
      'sourceChunk',
      { trackType, channel, offset: 0, data: data! },
      { transfer: [data!.buffer] },
    );
  }
};
