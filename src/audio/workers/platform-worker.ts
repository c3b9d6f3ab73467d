/// <reference lib="webworker" />
/** Platform playback previews (Spotify Loud's limiter) off the main thread. */
import { createPlatformHandlers } from './platform-handlers';
import type { PlatformApi } from './platform-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<PlatformApi>(self as unknown as RpcEndpoint, createPlatformHandlers());
