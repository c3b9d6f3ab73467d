/// <reference lib="webworker" />
/**
 * The encoder worker: WAV and MP3 files built off the main thread, block by block, with progress and
 * cancellation between blocks. Start it with
 * `new Worker(new URL('./encode-worker.ts', import.meta.url), { type: 'module' })`.
 */
import mp3WasmUrl from 'wasm-media-encoders/wasm/mp3?url';
import { createEncodeHandlers } from './encode-handlers';
import type { EncodeApi } from './encode-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<EncodeApi>(self as unknown as RpcEndpoint, createEncodeHandlers(mp3WasmUrl));
