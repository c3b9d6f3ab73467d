/// <reference lib="webworker" />
/** Waveform peaks at several zoom levels, off the main thread. */
import { createPeaksHandlers } from './peaks-handlers';
import type { PeaksApi } from './peaks-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<PeaksApi>(self as unknown as RpcEndpoint, createPeaksHandlers());
