/**
 * The encoder worker's handlers, apart from the worker entry so they can be served over any message port
 * (Node tests use a MessageChannel). `wasm` is where LAME's WebAssembly comes from by default.
 */
import { encodeMp3, type Mp3WasmSource } from '../codecs/mp3-encoder';
import { wavParts } from '../codecs/wav-encoder';
import type { EncodeApi } from './encode-protocol';
import { throttleProgress, yieldEvery } from './encode-yield';
import { type RpcHandlers, throwIfAborted } from './worker-rpc';

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
});
