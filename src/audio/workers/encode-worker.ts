/// <reference lib="webworker" />
/**
 * The encoder worker: WAV and MP3 files built off the main thread, block by block, with progress and
 * cancellation between blocks. Start it with
 * `new Worker(new URL('./encode-worker.ts', import.meta.url), { type: 'module' })`.
 */
import mp3WasmUrl from 'wasm-media-encoders/wasm/mp3?url';
import { encodeMp3 } from '../codecs/mp3-encoder';
import { wavParts } from '../codecs/wav-encoder';
import type { EncodeApi } from './encode-protocol';
import { yieldToEventLoop } from './encode-yield';
import { type RpcEndpoint, serveRpc, throwIfAborted } from './worker-rpc';

serveRpc<EncodeApi>(self as unknown as RpcEndpoint, {
  wav: async ({ channels, sampleRate, dither }, { signal, progress }) => {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (const step of wavParts(channels, sampleRate, { dither })) {
      parts.push(step.part);
      progress(step.framesDone / step.frames);
      await yieldToEventLoop();
      throwIfAborted(signal);
    }
    return { blob: new Blob(parts, { type: 'audio/wav' }) };
  },
  mp3: async ({ channels, sampleRate, bitrate, wasmUrl }, { signal, progress }) => {
    const parts = await encodeMp3(channels, sampleRate, {
      wasm: wasmUrl ?? mp3WasmUrl,
      bitrate,
      signal,
      onProgress: progress,
      between: yieldToEventLoop,
    });
    return { blob: new Blob(parts, { type: 'audio/mpeg' }) };
  },
});
