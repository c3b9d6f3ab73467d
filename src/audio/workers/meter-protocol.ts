import type { BandLevel } from '../dsp/band-levels';
import type { LoudnessReport } from '../dsp/loudness';
import type { FoldDown } from '../dsp/mono-fold-down';

/** The meter worker's protocol: full BS.1770 / R128 measurement (and optionally the seven band levels). */
export interface MeterApi {
  measure: {
    request: {
      channels: Float32Array[];
      sampleRate: number;
      bands?: boolean;
      truePeak?: boolean;
      /** Also the stereo correlation and the mono fold-down's loudness loss. */
      foldDown?: boolean;
    };
    /** The channels come back (transferred) so the caller can keep using them. */
    response: {
      channels: Float32Array[];
      loudness: LoudnessReport;
      bands: BandLevel[] | null;
      foldDown: FoldDown | null;
    };
    /** Fraction of the samples measured. */
    progress: number;
  };
}
