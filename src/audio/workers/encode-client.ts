import type { SequencedAlbum, SequenceOptions } from '../album/album-api';
import { EXPORT_MAX_BYTES, EXPORT_MAX_CHANNELS, exportChannels } from '../codecs/export-errors';
import type { Mp3Bitrate } from '../codecs/mp3-encoder';
import { type Mp3Segment, planMp3Segments } from '../codecs/mp3-parallel';
import type { IntDepth } from '../codecs/pcm-quantise';
import { type WavEncoding, type WavSegment, wavFileBytes } from '../codecs/wav-encoder';
import { copyChannelsInSlices } from '../sliced-copy';
import type { EncodeApi } from './encode-protocol';
import { ParallelJobs } from './parallel-jobs';
import { buffersOf, RespawningRpcClient, RpcRemoteError } from './worker-rpc';

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
  /**
   * Issue 28 (decision 217): the MP3 measures as loud as the WAV. The worker first limits the channels to
   * -1.5 dBTP at the same loudness (limitForLossy), then encodes them without the 0.5 dB turn-down.
   */
  sameLoudness?: boolean;
  /** Turn-down in the encoder, dB (default the encoder's MP3_HEADROOM_DB). */
  headroomDb?: number;
}

export interface WavJobOptions extends EncodeJobOptions {
  dither?: boolean;
  encoding?: WavEncoding;
  /**
   * Workers for a 16-bit WAV of WAV_PARALLEL_MIN_SECONDS or more: one by default, two on request (decision
   * 147: on the 2-core machines one worker was the faster, the second cost more to start and feed than it
   * saved). Other encodings and shorter files always use one.
   */
  workers?: number;
}

/** Below this length one worker is quicker than starting a second one and copying its half. */
export const WAV_PARALLEL_MIN_SECONDS = 20;

/** Whether a WAV encode goes to two workers: long 16-bit files that pass the checks the worker makes. */
const wavSplits = (channels: Float32Array[], sampleRate: number, options: WavJobOptions): boolean => {
  const frames = channels[0]?.length ?? 0;
  const kept = channels.slice(0, EXPORT_MAX_CHANNELS);
  return (
    (options.workers ?? 1) >= 2 &&
    (options.encoding ?? 'int16') === 'int16' &&
    Number.isInteger(sampleRate) &&
    frames >= WAV_PARALLEL_MIN_SECONDS * sampleRate &&
    kept.every((c) => c.length === frames) &&
    // Anything the worker would refuse goes to one worker, which refuses it with the spec's message.
    wavFileBytes(frames, kept.length) <= EXPORT_MAX_BYTES
  );
};

/** Workers an export uses by default: two (the target) where there are cores for them. */
const defaultWorkers = (): number =>
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

  async wav(channels: Float32Array[], sampleRate: number, options: WavJobOptions = {}): Promise<Blob> {
    if (wavSplits(channels, sampleRate, options)) {
      return this.#wavParallel(channels.slice(0, EXPORT_MAX_CHANNELS), sampleRate, options);
    }
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

  /**
   * The album's record, built in the worker a track at a time (album-sequence.ts RecordBuilder): `tracks`
   * yields each track's channels in order, as arrays the worker may take (copies: an AudioBuffer's own data
   * cannot move), so the page never holds more than one track's copy. The record's arrays come back.
   */
  async sequence(
    layout: { lengths: number[]; channels: number; sampleRate: number; options: SequenceOptions },
    tracks: AsyncIterable<Float32Array[]>,
    signal?: AbortSignal,
  ): Promise<SequencedAlbum> {
    const rpc = this.#rpc();
    await rpc.call('sequenceStart', layout, { signal });
    for await (const track of tracks)
      await rpc.call('sequenceAdd', { track }, { signal, transfer: buffersOf(track) });
    return rpc.call('sequenceTake', null, { signal });
  }

  async mp3(channels: Float32Array[], sampleRate: number, options: Mp3JobOptions = {}): Promise<Blob> {
    if (options.sameLoudness) {
      const limited = await this.#rpc().call(
        'lossyLimit',
        { channels: exportChannels(channels), sampleRate },
        { signal: options.signal, transfer: transferList(channels, options) },
      );
      const rest = { ...options, sameLoudness: false, headroomDb: 0, transfer: true };
      return this.mp3(limited.channels, sampleRate, rest);
    }
    const length = channels[0]?.length ?? 0;
    const plan = planMp3Segments(length, sampleRate, options.workers ?? defaultWorkers());
    if (!plan) {
      const file = await this.#rpc().call(
        'mp3',
        {
          channels,
          sampleRate,
          bitrate: options.bitrate,
          wasmUrl: options.wasmUrl,
          headroomDb: options.headroomDb,
        },
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
    const { signal, bitrate, wasmUrl, headroomDb } = options;
    const length = channels[0]!.length;
    const jobs = new ParallelJobs(
      plan.map((s) => s.end - s.start),
      signal,
      options.onProgress,
    );
    try {
      const giveBack = options.transfer === true;
      const segment = (i: number, input: Float32Array[], start: number, end: number) =>
        jobs.track(
          this.#rpc(i).call(
            'mp3Segment',
            {
              channels: input,
              sampleRate,
              bitrate,
              wasmUrl,
              headroomDb,
              start,
              end,
              giveBack: i === 0 && giveBack,
            },
            { signal: jobs.signal, onProgress: jobs.progress(i), transfer: buffersOf(input) },
          ),
        );
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
      const results = await jobs.all([head, ...later]);
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
          { channels: input, sampleRate, bitrate, wasmUrl, headroomDb },
          { signal, transfer: giveBack ? buffersOf(input) : [] },
        );
        return file.blob;
      }
    } finally {
      jobs.dispose();
    }
  }

  /**
   * A 16-bit WAV in two halves at once, one per worker, joined as Blobs (no copy). The dither is a function
   * of the sample's place in the file, so the bytes are exactly those of one worker's encode. The second
   * half gets a copy (made in slices); the first gets the caller's arrays when it may move them.
   */
  async #wavParallel(channels: Float32Array[], sampleRate: number, options: WavJobOptions): Promise<Blob> {
    const { signal, dither } = options;
    const frames = channels[0]!.length;
    const mid = Math.floor(frames / 2);
    const jobs = new ParallelJobs([mid, frames - mid], signal, options.onProgress);
    try {
      const half = (i: number, input: Float32Array[], segment: WavSegment) =>
        jobs.track(
          this.#rpc(i).call(
            'wav',
            { channels: input, sampleRate, dither, segment },
            { signal: jobs.signal, onProgress: jobs.progress(i), transfer: buffersOf(input) },
          ),
        );
      const tail = await copyChannelsInSlices(channels.map((c) => c.subarray(mid)));
      signal?.throwIfAborted();
      const second = half(1, tail, {
        start: 0,
        end: frames - mid,
        firstFrame: mid,
        fileFrames: frames,
        header: false,
      });
      const head = options.transfer
        ? channels
        : await copyChannelsInSlices(channels.map((c) => c.subarray(0, mid)));
      const first = half(0, head, { start: 0, end: mid, firstFrame: 0, fileFrames: frames, header: true });
      const [a, b] = await jobs.all([first, second]);
      return new Blob([a!.blob, b!.blob], { type: 'audio/wav' });
    } finally {
      jobs.dispose();
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
