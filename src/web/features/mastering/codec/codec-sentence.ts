/**
 * Codec preview in one plain sentence (issue 30, decision 253): what the lossy copies streaming services
 * send did to the master's peaks and loudness, once encoded and measured; what to do before that.
 */
import { db } from '../common/audio-numbers';
import { listWords } from '../common/plain-sentences';
import type { CodecPreviewReport } from '../engine/engine-api';

export interface CodecMeasured {
  label: string;
  report: CodecPreviewReport;
}

/** A loudness change under this is not heard (the meter's own rounding). */
const SAME_LOUDNESS_LU = 0.2;

const one = ({ label, report: r }: CodecMeasured, ceilingDbtp: number): string => {
  const rise =
    Math.abs(r.truePeakRiseDb) < 0.05
      ? 'its peaks do not move'
      : r.truePeakRiseDb > 0
        ? `its peaks rise ${db(r.truePeakRiseDb, 2)} dB`
        : `its peaks fall ${db(-r.truePeakRiseDb, 2)} dB`;
  const fits = r.overCeiling
    ? `and go over the ${db(ceilingDbtp, 0)} dB ceiling, so it may distort slightly`
    : `and stay under the ${db(ceilingDbtp, 0)} dB ceiling, so it will not distort`;
  const loud =
    Math.abs(r.loudnessChangeLu) < SAME_LOUDNESS_LU
      ? ''
      : ` (and it plays ${db(Math.abs(r.loudnessChangeLu))} dB ${r.loudnessChangeLu > 0 ? 'louder' : 'quieter'})`;
  return `as ${label} ${rise} ${fits}${loud}`;
};

export const codecSentence = (measured: readonly CodecMeasured[], ceilingDbtp: number): string => {
  if (measured.length === 0)
    return 'Streaming services send a compressed copy of your master; encode one below to hear it and see whether its peaks still fit.';
  const said = listWords(measured.map((m) => one(m, ceilingDbtp)));
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
};
