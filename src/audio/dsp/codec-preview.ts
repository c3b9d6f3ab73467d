/**
 * What a lossy encode does to the master's peaks and loudness (the codec preview, decision 128): the
 * decoded file is measured by the same BS.1770 meter as the master, and compared with it.
 */
import type { LoudnessReport } from './loudness';

export type PreviewCodec = 'mp3-320' | 'aac-256';

export const CODEC_LABELS: Record<PreviewCodec, string> = {
  'mp3-320': 'MP3 320 kbps',
  'aac-256': 'AAC 256 kbps',
};

export interface CodecPreviewReport {
  codec: PreviewCodec;
  /** The decoded file's true peak, dBTP. */
  truePeakDbtp: number;
  integratedLufs: number;
  /** How far the codec moved the true peak (decoded minus master), dB. */
  truePeakRiseDb: number;
  /** How far the codec moved the loudness (decoded minus master), LU. */
  loudnessChangeLu: number;
  /** The decoded file's true peak is over the ceiling it was mastered to (the codec made overs). */
  overCeiling: boolean;
}

export const codecPreviewReport = (
  codec: PreviewCodec,
  master: Pick<LoudnessReport, 'truePeakDbtp' | 'integratedLufs'>,
  decoded: LoudnessReport,
  ceilingDbtp: number,
): CodecPreviewReport => ({
  codec,
  truePeakDbtp: decoded.truePeakDbtp,
  integratedLufs: decoded.integratedLufs,
  truePeakRiseDb: decoded.truePeakDbtp - master.truePeakDbtp,
  loudnessChangeLu: decoded.integratedLufs - master.integratedLufs,
  // A hundredth of a dB of slack: the same meter reading the same peak may round either side.
  overCeiling: decoded.truePeakDbtp > ceilingDbtp + 0.01,
});
