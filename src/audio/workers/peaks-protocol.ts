import type { PeakLevel } from '../dsp/peaks';

/** The peaks worker's protocol (see worker-rpc.ts); progress is the fraction of samples read. */
export interface PeaksApi {
  peaks: {
    request: { channels: Float32Array[]; levels?: number[] };
    response: { levels: PeakLevel[] };
    progress: number;
  };
}
