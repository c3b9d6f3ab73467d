/// <reference lib="webworker" />
/**
 * The mix worker: keeps the decoded sources and renders the mixdown and the style previews off the main
 * thread, with progress per stage and cancellation between blocks.
 */
import { createMixHandlers } from './mix-handlers';
import type { MixApi } from './mix-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<MixApi>(self as unknown as RpcEndpoint, createMixHandlers());
