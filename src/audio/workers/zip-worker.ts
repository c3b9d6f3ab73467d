/// <reference lib="webworker" />
/** The ZIP worker: a download's files packed into one archive off the main thread (zip-handlers.ts). */
import { type RpcEndpoint, serveRpc } from './worker-rpc';
import { createZipHandlers } from './zip-handlers';
import type { ZipApi } from './zip-protocol';

serveRpc<ZipApi>(self as unknown as RpcEndpoint, createZipHandlers());
