/**
 * The encoder worker's handlers, apart from the worker entry so they can be served over any message port
 * (Node tests use a MessageChannel). `wasm` is where LAME's WebAssembly comes from by default.
 */
import { encodeMp3, encodeMp3Frames, MP3_DEFAULT_BITRATE, type Mp3WasmSource } from '../codecs/mp3-encoder';
import { lameInfoFrame } from '../codecs/mp3-info-tag';
import { joinMp3Segments } from '../codecs/mp3-parallel';
import { wavParts } from '../codecs/wav-encoder';
import type { EncodeApi } from './encode-protocol';
import { throttleProgress, yieldEvery } from './encode-yield';
import { buffersOf, type RpcHandlers, throwIfAborted, transferring } from './worker-rpc';

export const createEncodeHandlers = (wasm: Mp3WasmSource): RpcHandlers<EncodeApi> => ({
  wav: async ({ channels, sampleRate, dither }, { signal, progress }) => {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    const report = throttleProgress(progress, (f) => f >= 1);
    const pause = yieldEvery();
    for (const step of wavParts(channels, sampleRate, { dither })) {
      parts.push(step.part);
      report(step.framesDone / step.frames);
      await pause();
      throwIfAborted(signal);
    }
    return { blob: new Blob(parts, { type: 'audio/wav' }) };
  },
  mp3: async ({ channels, sampleRate, bitrate, wasmUrl }, { signal, progress }) => {
    const parts = await encodeMp3(channels, sampleRate, {
      wasm: wasmUrl ?? wasm,
      bitrate,
      signal,
      onProgress: throttleProgress(progress, (f) => f >= 1),
      between: yieldEvery(),
    });
    return { blob: new Blob(parts, { type: 'audio/mpeg' }) };
  },
  mp3Segment: async (
    { channels, sampleRate, bitrate, wasmUrl, start, end, giveBack },
    { signal, progress },
  ) => {
    const parts = await encodeMp3Frames(channels, sampleRate, {
      wasm: wasmUrl ?? wasm,
      bitrate,
      signal,
      start,
      end,
      onProgress: throttleProgress(progress, (f) => f >= 1),
      between: yieldEvery(),
    });
    const kept = giveBack ? channels : [];
    return transferring({ parts, channels: giveBack ? channels : undefined }, buffersOf([...parts, ...kept]));
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
});
