/// <reference lib="webworker" />
/** What the mixer learns from its tracks when they load (issue 26), off the main thread. */
import { createListenHandlers } from './listen-handlers';
import type { ListenApi } from './listen-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<ListenApi>(self as unknown as RpcEndpoint, createListenHandlers());
