/**
 * "Why it sounds like this" in one plain sentence (issue 30, decision 253): what the compression, the
 * limiter and the EQ did to this track, and how close the master landed to its loudness target, from the
 * figures the render measured. The sections under the button give every number.
 */
import { db } from '../common/audio-numbers';
import { listWords } from '../common/plain-sentences';
import type { BandLevel, DynamicsSummary, LoudnessReport } from '../engine/engine-api';

export interface WhyFigures {
  /** The compressor (or the deepest of the band compressors); null when Compression was 0. */
  compressor: DynamicsSummary | null;
  limiter: DynamicsSummary;
  /** Each band's measured change against the original, the overall loudness change taken out (dB). */
  bandChanges: readonly { name: string; changeDb: number }[];
  /** Master loudness minus the target (LU). */
  offTargetLu: number;
}

interface Measured {
  loudness: Pick<LoudnessReport, 'integratedLufs'>;
  bands: readonly Pick<BandLevel, 'name' | 'levelDb'>[];
}

/** Each band's change in the master against the original, after the overall loudness change (dB). */
export const measuredBandChanges = (original: Measured, master: Measured): WhyFigures['bandChanges'] => {
  const loudnessChange = master.loudness.integratedLufs - original.loudness.integratedLufs;
  return master.bands.map((b, i) => ({
    name: b.name,
    changeDb: b.levelDb - (original.bands[i]?.levelDb ?? Number.NaN) - loudnessChange,
  }));
};

/** A tone change smaller than this is hard to hear; the sentence calls the tone kept. */
const HEARD_DB = 1;
/** Gain reduction under half a dB is not heard: the sentence says the stage barely worked (the numbers
 * still count it from 0.1 dB, ACTIVE_REDUCTION_DB). */
const BARELY_DB = 0.5;

const squeeze = (s: DynamicsSummary | null): string =>
  !s
    ? 'there was no compression'
    : s.maxDb < BARELY_DB
      ? 'the compressor barely touched your track'
      : `the compressor held the loudest moments down by up to ${db(s.maxDb)} dB`;

const limit = (s: DynamicsSummary): string =>
  s.maxDb < BARELY_DB
    ? 'the limiter hardly had to catch a peak'
    : `the limiter shaved up to ${db(s.maxDb)} dB off the sharpest peaks`;

const tone = (bands: WhyFigures['bandChanges']): string => {
  const finite = bands.filter((b) => Number.isFinite(b.changeDb));
  const up = finite.reduce<(typeof finite)[number] | null>(
    (a, b) => (b.changeDb >= HEARD_DB && (!a || b.changeDb > a.changeDb) ? b : a),
    null,
  );
  const down = finite.reduce<(typeof finite)[number] | null>(
    (a, b) => (b.changeDb <= -HEARD_DB && (!a || b.changeDb < a.changeDb) ? b : a),
    null,
  );
  const moves = [
    up ? `brought the ${up.name.toLowerCase()} up ${db(up.changeDb)} dB` : null,
    down ? `took ${db(-down.changeDb)} dB off the ${down.name.toLowerCase()}` : null,
  ].filter((m): m is string => m !== null);
  return moves.length === 0 ? 'the EQ kept its tone within a decibel' : `the EQ ${listWords(moves)}`;
};

const landing = (off: number): string =>
  Math.abs(off) < 0.5
    ? 'the master landed on its loudness target'
    : `the master landed ${db(Math.abs(off))} dB ${off > 0 ? 'above' : 'below'} its loudness target`;

export const whySentence = (f: WhyFigures): string => {
  const said = `${squeeze(f.compressor)}, ${limit(f.limiter)}, ${tone(f.bandChanges)}, and ${landing(f.offTargetLu)}`;
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
};
