/// <reference lib="webworker" />
/** WAV files read by our own reader off the main thread (issue 26: decodeAudioData's result is one long task). */
import { createWavDecodeHandlers } from './wav-decode-handlers';
import type { WavDecodeApi } from './wav-decode-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<WavDecodeApi>(self as unknown as RpcEndpoint, createWavDecodeHandlers());
