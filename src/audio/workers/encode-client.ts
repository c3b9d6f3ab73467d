import { exportChannels } from '../codecs/export-errors';
import type { Mp3Bitrate } from '../codecs/mp3-encoder';
import { type Mp3Segment, planMp3Segments } from '../codecs/mp3-parallel';
import type { IntDepth } from '../codecs/pcm-quantise';
import type { WavEncoding } from '../codecs/wav-encoder';
import type { EncodeApi } from './encode-protocol';
import { buffersOf, copyChannelsInSlices, RespawningRpcClient, RpcRemoteError } from './worker-rpc';

export interface EncodeJobOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /**
   * Move the channel buffers to the worker instead of copying them (the arrays are unusable afterwards).
   * Saves a main-thread copy of the whole track; never pass an AudioBuffer's own channel data.
   */
  transfer?: boolean;
}

const defaultFactory = () => new Worker(new URL('./encode-worker.ts', import.meta.url), { type: 'module' });

export interface Mp3JobOptions extends EncodeJobOptions {
  bitrate?: Mp3Bitrate;
  wasmUrl?: string;
  /**
   * Encoders (workers) to split a long MP3 encode over; by default two where the device has two cores or
   * more. Inputs shorter than MP3_PARALLEL_MIN_SECONDS, or at rates LAME resamples, use one.
   */
  workers?: number;
}

/** Workers an MP3 encode uses by default: two (the target) where there are cores for them. */
const defaultMp3Workers = (): number =>
  Math.min(
    2,
    (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1,
  );

/**
 * The page's side of the encoder workers: lazily started, each restarted after a crash. WAV and short MP3s
 * use the first worker; a long MP3 is split over several (see mp3-parallel.ts).
 */
export class EncoderClient {
  #factory: () => Worker;
  #rpcs: RespawningRpcClient<EncodeApi>[] = [];

  constructor(factory: () => Worker = defaultFactory) {
    this.#factory = factory;
  }

  /** The i-th worker's client (started on its first call). */
  #rpc(i = 0): RespawningRpcClient<EncodeApi> {
    while (this.#rpcs.length <= i) this.#rpcs.push(new RespawningRpcClient<EncodeApi>(this.#factory));
    return this.#rpcs[i]!;
  }

  async wav(
    channels: Float32Array[],
    sampleRate: number,
    options: EncodeJobOptions & { dither?: boolean; encoding?: WavEncoding } = {},
  ): Promise<Blob> {
    const file = await this.#rpc().call(
      'wav',
      { channels, sampleRate, dither: options.dither, encoding: options.encoding },
      { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
    );
    return file.blob;
  }

  async flac(
    channels: Float32Array[],
    sampleRate: number,
    options: EncodeJobOptions & { bits?: IntDepth; dither?: boolean } = {},
  ): Promise<Blob> {
    const file = await this.#rpc().call(
      'flac',
      { channels, sampleRate, bits: options.bits, dither: options.dither },
      { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
    );
    return file.blob;
  }

  /** The channels at `outputRate`, computed in the worker (new arrays; the input is copied unless moved). */
  async resample(
    channels: Float32Array[],
    sampleRate: number,
    outputRate: number,
    options: EncodeJobOptions = {},
  ): Promise<Float32Array[]> {
    const result = await this.#rpc().call(
      'resample',
      { channels: exportChannels(channels), sampleRate, outputRate },
      { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
    );
    return result.channels;
  }

  async mp3(channels: Float32Array[], sampleRate: number, options: Mp3JobOptions = {}): Promise<Blob> {
    const length = channels[0]?.length ?? 0;
    const plan = planMp3Segments(length, sampleRate, options.workers ?? defaultMp3Workers());
    if (!plan) {
      const file = await this.#rpc().call(
        'mp3',
        { channels, sampleRate, bitrate: options.bitrate, wasmUrl: options.wasmUrl },
        { signal: options.signal, onProgress: options.onProgress, transfer: transferList(channels, options) },
      );
      return file.blob;
    }
    return this.#mp3Parallel(exportChannels(channels), sampleRate, plan, options);
  }

  /**
   * Every segment in its own worker at once; the first worker joins them. A failure anywhere (a crash, a
   * cancel) cancels the other segments and rejects. Should no seam be found, one worker encodes it all.
   */
  async #mp3Parallel(
    channels: Float32Array[],
    sampleRate: number,
    plan: Mp3Segment[],
    options: Mp3JobOptions,
  ): Promise<Blob> {
    const { signal, bitrate, wasmUrl } = options;
    signal?.throwIfAborted();
    const length = channels[0]!.length;
    const jobs = new AbortController();
    const stop = () => jobs.abort(signal?.reason);
    // The first error (a crash, a cancel) is the one to report, not the cancels it causes.
    let failure: unknown;
    signal?.addEventListener('abort', stop, { once: true });
    const done = plan.map(() => 0);
    const weights = plan.map((s) => (s.end - s.start) / plan.reduce((n, p) => n + p.end - p.start, 0));
    const report = (i: number, f: number) => {
      done[i] = f;
      const total = done.reduce((sum, d, k) => sum + d * weights[k]!, 0);
      options.onProgress?.(Math.min(1, total));
    };
    try {
      const giveBack = options.transfer === true;
      const segment = (i: number, input: Float32Array[], start: number, end: number) => {
        const job = this.#rpc(i).call(
          'mp3Segment',
          { channels: input, sampleRate, bitrate, wasmUrl, start, end, giveBack: i === 0 && giveBack },
          { signal: jobs.signal, onProgress: (f) => report(i, f), transfer: buffersOf(input) },
        );
        // A failing segment cancels the others at once (and is awaited below).
        job.catch((error: unknown) => {
          failure ??= error;
          stop();
        });
        return job;
      };
      // Each later segment gets a copy (made in slices: the page stays responsive) and starts at once; the
      // first gets the caller's arrays when it may move them (and moves them back for a serial fallback).
      const later: ReturnType<typeof segment>[] = [];
      for (const [k, s] of plan.slice(1).entries()) {
        const input = await copyChannelsInSlices(channels.map((c) => c.subarray(s.start, s.end)));
        signal?.throwIfAborted();
        later.push(segment(k + 1, input, 0, input[0]!.length));
      }
      const first = plan[0]!;
      const head = giveBack
        ? segment(0, channels, first.start, first.end)
        : segment(
            0,
            await copyChannelsInSlices(channels.map((c) => c.subarray(first.start, first.end))),
            0,
            first.end - first.start,
          );
      const results = await Promise.all([head, ...later]).catch((error: unknown) => {
        throw failure ?? error;
      });
      const segments = results.map((r, i) => ({ parts: r.parts, firstFrame: plan[i]!.firstFrame }));
      try {
        const file = await this.#rpc().call(
          'mp3Join',
          { segments, inputFrames: length, bitrate },
          { signal, transfer: buffersOf(segments.flatMap((s) => s.parts)) },
        );
        return file.blob;
      } catch (error) {
        if (!(error instanceof RpcRemoteError && error.remoteName === 'Mp3SeamError')) throw error;
        // Never seen in practice (see mp3-parallel.ts); still, the file must come out right.
        const input = giveBack ? results[0]!.channels! : channels;
        const file = await this.#rpc().call(
          'mp3',
          { channels: input, sampleRate, bitrate, wasmUrl },
          { signal, transfer: giveBack ? buffersOf(input) : [] },
        );
        return file.blob;
      }
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  dispose(): void {
    for (const rpc of this.#rpcs.splice(0)) rpc.dispose();
  }
}

const transferList = (channels: Float32Array[], options: EncodeJobOptions): Transferable[] => {
  if (!options.transfer) return [];
  return [...new Set(channels.map((c) => c.buffer))].filter(
    (b): b is ArrayBuffer => b instanceof ArrayBuffer,
  );
};
