import type { LoudnessReport } from '../dsp/loudness';

/** The platform-preview worker's protocol (see worker-rpc.ts); progress is the fraction of frames done. */
export interface PlatformApi {
  /**
   * The master as Spotify plays it in Loud mode: the gain applied, then Spotify's limiter (modelled), then
   * measured. The channels are consumed and come back processed.
   */
  spotifyLoud: {
    request: { channels: Float32Array[]; sampleRate: number; gainDb: number };
    response: { channels: Float32Array[]; loudness: LoudnessReport };
    progress: number;
  };
}
