import type { SongFacts } from '../model/song-facts';

/** The song-facts worker's protocol (see worker-rpc.ts); progress is the fraction of the analysis done. */
export interface SongFactsApi {
  analyze: {
    request: { channels: Float32Array[]; sampleRate: number };
    response: { facts: SongFacts; relativeOf?: SongFacts['key'] };
    progress: number;
  };
}
