/**
 * The encoder worker's handlers, apart from the worker entry so they can be served over any message port
 * (Node tests use a MessageChannel). `wasm` is where LAME's WebAssembly comes from by default.
 */
import { RecordBuilder } from '../album/album-sequence';
import { flacParts } from '../codecs/flac-encoder';
import { encodeMp3, encodeMp3Frames, MP3_DEFAULT_BITRATE, type Mp3WasmSource } from '../codecs/mp3-encoder';
import { lameInfoFrame } from '../codecs/mp3-info-tag';
import { joinMp3Segments } from '../codecs/mp3-parallel';
import { wavParts } from '../codecs/wav-encoder';
import { limitForLossy } from '../dsp/lossy-headroom';
import { designResampler, resampledLength, resampleRange } from '../dsp/resample';
import type { EncodeApi } from './encode-protocol';
import { throttleProgress, yieldEvery } from './encode-yield';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

/** Output samples per resampling slice (~0.1 s of work): a cancel is honoured between slices. */
const RESAMPLE_SLICE = 32_768;

export const createEncodeHandlers = (wasm: Mp3WasmSource): RpcHandlers<EncodeApi> => {
  /** The album record being built (sequenceStart .. sequenceTake), one at a time. */
  let record: RecordBuilder | null = null;
  return {
    wav: async ({ channels, sampleRate, dither, encoding, segment }, { signal, progress }) => {
      const parts = await collect(
        wavParts(channels, sampleRate, { dither, encoding, segment }),
        signal,
        progress,
      );
      return { blob: new Blob(parts, { type: 'audio/wav' }) };
    },
    flac: async ({ channels, sampleRate, dither, bits }, { signal, progress }) => {
      // The first part (the header) is completed in place when the generator ends: build the Blob after.
      const parts = await collect(flacParts(channels, sampleRate, { dither, bits }), signal, progress);
      return { blob: new Blob(parts, { type: 'audio/flac' }) };
    },
    resample: async ({ channels, sampleRate, outputRate }, { signal, progress }) => {
      const design = designResampler(sampleRate, outputRate);
      const report = throttleProgress(progress, (f) => f >= 1);
      const pause = yieldEvery();
      const length = resampledLength(channels[0]?.length ?? 0, sampleRate, outputRate);
      const out = channels.map(() => new Float32Array(length));
      for (const [c, input] of channels.entries()) {
        for (let from = 0; from < length; from += RESAMPLE_SLICE) {
          const to = Math.min(length, from + RESAMPLE_SLICE);
          resampleRange(input, out[c]!, from, to, design);
          report((c + to / length) / channels.length);
          await pause();
          throwIfAborted(signal);
        }
      }
      return transferring({ channels: out }, buffersOf(out));
    },
    sequenceStart: ({ lengths, channels, sampleRate, options }) => {
      record = new RecordBuilder(lengths, channels, sampleRate, options);
      return null;
    },
    sequenceAdd: ({ track }) => {
      if (!record) throw new Error('No record was started');
      record.add(track);
      return null;
    },
    sequenceTake: () => {
      if (!record) throw new Error('No record was started');
      const album = record.take();
      record = null;
      return transferring(album, buffersOf(album.channels));
    },
    lossyLimit: async ({ channels, sampleRate }, { signal, progress }) => {
      const report = throttleProgress(progress, (f) => f >= 1);
      // The render's loudness and limiting stages span 0.6..1 of its progress.
      await limitForLossy(channels, sampleRate, undefined, {
        signal,
        onProgress: (p) => report(Math.max(0, (p.fraction - 0.6) / 0.4)),
      });
      return transferring({ channels }, buffersOf(channels));
    },
    mp3: async ({ channels, sampleRate, bitrate, wasmUrl, headroomDb }, { signal, progress }) => {
      const parts = await encodeMp3(channels, sampleRate, {
        wasm: wasmUrl ?? wasm,
        bitrate,
        headroomDb,
        signal,
        onProgress: throttleProgress(progress, (f) => f >= 1),
        between: yieldEvery(),
      });
      return { blob: new Blob(parts, { type: 'audio/mpeg' }) };
    },
    mp3Segment: async (
      { channels, sampleRate, bitrate, wasmUrl, headroomDb, start, end, giveBack },
      { signal, progress },
    ) => {
      const parts = await encodeMp3Frames(channels, sampleRate, {
        wasm: wasmUrl ?? wasm,
        bitrate,
        headroomDb,
        signal,
        start,
        end,
        onProgress: throttleProgress(progress, (f) => f >= 1),
        between: yieldEvery(),
      });
      const kept = giveBack ? channels : [];
      return transferring(
        { parts, channels: giveBack ? channels : undefined },
        buffersOf([...parts, ...kept]),
      );
    },
    mp3Join: ({ segments, inputFrames, bitrate }) => {
      const { parts } = joinMp3Segments(segments);
      const tag = lameInfoFrame(parts, inputFrames, bitrate ?? MP3_DEFAULT_BITRATE);
      return {
        blob: new Blob([tag as Uint8Array<ArrayBuffer>, ...(parts as Uint8Array<ArrayBuffer>[])], {
          type: 'audio/mpeg',
        }),
      };
    },
  };
};

/** Runs an encoder generator to its end, reporting progress and honouring a cancel between parts. */
const collect = async (
  steps: Iterable<{ part: Uint8Array<ArrayBuffer>; framesDone: number; frames: number }>,
  signal: AbortSignal,
  progress: (f: number) => void,
): Promise<Uint8Array<ArrayBuffer>[]> => {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const report = throttleProgress(progress, (f) => f >= 1);
  const pause = yieldEvery();
  for (const step of steps) {
    parts.push(step.part);
    report(step.framesDone / step.frames);
    await pause();
    throwIfAborted(signal);
  }
  return parts;
};
