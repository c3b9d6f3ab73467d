/// <reference lib="webworker" />
/** The beat's tempo, grid and key, off the main thread (issue 27). */
import { createSongFactsHandlers } from './song-facts-handlers';
import type { SongFactsApi } from './song-facts-protocol';
import { type RpcEndpoint, serveRpc } from './worker-rpc';

serveRpc<SongFactsApi>(self as unknown as RpcEndpoint, createSongFactsHandlers());
