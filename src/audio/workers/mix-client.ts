import type { TrackType } from '../model/clip';
import { type MixStyleId, PREVIEW_ORDER } from '../model/mix-styles';
import type { SampleWindow } from '../model/preview-window';
import type { MixRenderSettings } from '../render/mix-render';
import type { MixProgress } from '../render/mix-stages';
import type { MixApi, MixTimeline, RenderedMix, RenderedPreview } from './mix-protocol';
import { RpcClient } from './worker-rpc';

const defaultFactory = () => new Worker(new URL('./mix-worker.ts', import.meta.url), { type: 'module' });

/**
 * The page's side of the mix worker. The worker keeps the sources it was given; after a crash a fresh worker
 * starts with none, so the client sends them again. Sources are always copied by the structured clone, never
 * transferred, so the page may pass an AudioBuffer's own channel data (getChannelData) and keep playing it;
 * the client keeps only references to those arrays, no second copy.
 */
export class MixClient {
  #factory: () => Worker;
  #rpc: RpcClient<MixApi> | null = null;
  #sources: Partial<Record<TrackType, { channels: Float32Array[]; sampleRate: number }>> = {};

  constructor(factory: () => Worker = defaultFactory) {
    this.#factory = factory;
  }

  async #client(): Promise<RpcClient<MixApi>> {
    if (this.#rpc && !this.#rpc.failure) return this.#rpc;
    this.#rpc = new RpcClient<MixApi>(this.#factory());
    for (const [trackType, source] of Object.entries(this.#sources) as [
      TrackType,
      { channels: Float32Array[]; sampleRate: number },
    ][]) {
      await this.#rpc.call('setSource', {
        trackType,
        channels: source.channels,
        sampleRate: source.sampleRate,
      });
    }
    return this.#rpc;
  }

  /** Give the worker a decoded track (or null to remove it); the worker gets its own copy. */
  async setSource(trackType: TrackType, channels: Float32Array[] | null, sampleRate: number): Promise<void> {
    if (channels) this.#sources[trackType] = { channels, sampleRate };
    else delete this.#sources[trackType];
    const rpc = await this.#client();
    await rpc.call('setSource', { trackType, channels, sampleRate });
  }

  async mixdown(
    timeline: MixTimeline,
    settings: MixRenderSettings,
    options: { signal?: AbortSignal; onProgress?: (p: MixProgress) => void } = {},
  ): Promise<RenderedMix> {
    const rpc = await this.#client();
    return rpc.call('mixdown', { timeline, settings }, options);
  }

  async previews(
    timeline: MixTimeline,
    window: SampleWindow,
    outputVolume: number,
    options: {
      styles?: MixStyleId[];
      signal?: AbortSignal;
      onProgress?: (p: MixApi['previews']['progress']) => void;
    } = {},
  ): Promise<RenderedPreview[]> {
    const rpc = await this.#client();
    const { previews } = await rpc.call(
      'previews',
      { timeline, window, outputVolume, styles: options.styles ?? [...PREVIEW_ORDER] },
      { signal: options.signal, onProgress: options.onProgress },
    );
    return previews;
  }

  dispose(): void {
    this.#rpc?.dispose();
    this.#rpc = null;
    this.#sources = {};
  }
}
