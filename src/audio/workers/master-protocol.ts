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
  /** The loudness gain a render would apply, for the live path (the channels are consumed). */
  plan: {
    request: {
      channels: Float32Array[];
      sampleRate: number;
      settings: MasteringSettings;
      targetLufs: number;
    };
    response: { gainDb: number; predictedLufs: number; processedLufs: number };
    progress: MasteringProgress;
  };
}
