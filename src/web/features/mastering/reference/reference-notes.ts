/**
 * What the page says about a reference (issue 30, decision 243): that its loudness replaces the chosen
 * target, and that a lossy or band-limited reference's empty top bands are left out of the tone match.
 */
import {
  MATCH_HIGH_HZ,
  referenceBandwidth,
  THIRD_OCTAVE_CENTRES,
  type TrackAnalysis,
} from '../engine/engine-api';

const LOSSY = /\.(mp3|ogg|oga|opus|m4a|aac|mp4)$/i;

const kHz = (hz: number) => `${(hz / 1000).toFixed(hz < 10_000 ? 1 : 0)} kHz`;

/** The target line while a reference sets the loudness: the number, and what it replaces. */
export const referenceTargetNote = (lufs: number, replacedLabel: string): string =>
  `Master to ${lufs.toFixed(1)} LUFS, the reference's loudness: it replaces the Loudness target (${replacedLabel}) while a reference is loaded`;

/** The note under the reference: null for a full-band lossless file. */
export const referenceBandNote = (name: string, track: TrackAnalysis): string | null => {
  const { cutoffHz } = referenceBandwidth(track.midDb);
  const format = LOSSY.test(name) ? name.slice(name.lastIndexOf('.') + 1).toUpperCase() : null;
  if (cutoffHz !== null && cutoffHz <= MATCH_HIGH_HZ) {
    const what = format ? `This ${format} reference` : 'This reference';
    return `${what} has nothing above about ${kHz(cutoffHz)} (a lossy or band-limited file): the bands above are left out of the tone match, so your master keeps its highs.`;
  }
  if (format) {
    return `This reference is a lossy ${format} file; its highs reach the top of the tone match (12.5 kHz), so all bands are matched.`;
  }
  return null;
};

/** The mid's level from 2 to 8 kHz over 60 to 250 Hz: how bright a track is, whatever its loudness. */
export const brightnessDb = (midDb: readonly number[]): number => {
  const mean = (lo: number, hi: number) => {
    const v = midDb.filter((d, i) => {
      const f = THIRD_OCTAVE_CENTRES[i] ?? 0;
      return f >= lo && f <= hi && Number.isFinite(d);
    });
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
  };
  return mean(2000, 8000) - mean(60, 250);
};

/** A difference in brightness under this is not worth a word. */
const SAME_TONE_DB = 2;

/**
 * The reference's first line (issue 30, decision 253): louder or quieter than your track, brighter or
 * darker, and what the master takes from it. Its numbers sit under the button.
 */
export const referenceSentence = (
  reference: Pick<TrackAnalysis, 'integratedLufs' | 'midDb'>,
  own: Pick<TrackAnalysis, 'integratedLufs' | 'midDb'> | null,
  /** The Tone match slider, 0-100. */
  toneMatch: number,
): string => {
  const takes = `the master takes its loudness and ${Math.round(toneMatch)} % of its tone`;
  if (!own) return `Your reference is measured; ${takes}.`;
  const louder = reference.integratedLufs - own.integratedLufs;
  const level =
    Math.abs(louder) < 0.5
      ? 'about as loud as your track'
      : `${Math.abs(louder).toFixed(1)} dB ${louder > 0 ? 'louder' : 'quieter'} than your track`;
  const tilt = brightnessDb(reference.midDb) - brightnessDb(own.midDb);
  const tone = !Number.isFinite(tilt)
    ? ''
    : Math.abs(tilt) < SAME_TONE_DB
      ? ' with a similar tone'
      : tilt > 0
        ? ' and brighter'
        : ' and darker';
  return `Your reference is ${level}${tone}; ${takes}.`;
};
