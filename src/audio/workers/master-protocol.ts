import type { MasteringSettings } from '../../shared/mastering';
import type { MasteringProgress, MasteringReport } from '../dsp/mastering-chain';

/**
 * The master worker's protocol (see worker-rpc.ts). The channels move to the worker, are mastered in place
 * and move back: no copy either way.
 */
export interface MasterApi {
  master: {
    request: {
      channels: Float32Array[];
      sampleRate: number;
      settings: MasteringSettings;
      targetLufs: number;
      ceilingDb?: number;
    };
    response: { channels: Float32Array[]; report: MasteringReport };
    progress: MasteringProgress;
  };
}
