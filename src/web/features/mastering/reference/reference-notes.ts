/**
 * What the page says about a reference (issue 30, decision 243): that its loudness replaces the chosen
 * target, and that a lossy or band-limited reference's empty top bands are left out of the tone match.
 */
import { MATCH_HIGH_HZ, referenceBandwidth, type TrackAnalysis } from '../engine/engine-api';

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
