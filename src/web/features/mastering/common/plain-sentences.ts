/**
 * The one plain sentence the Loudness and Track analysis panels open with (issue 30, decisions 245, 253):
 * what it found and what the master did, in words; the numbers are one click away under it. The other
 * panels' sentences sit beside their panels (platform/, codec/, why/ …) and use the helpers here.
 */
import type { LoudnessReport, TrackAnalysis } from '../engine/engine-api';
import { db } from './audio-numbers';

const clock = (s: number): string => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/** "a", "a and b", "a, b and c". */
export const listWords = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** What LUFS means, said beside the number the first time a sentence uses it. */
export const LUFS_MEANS = 'loudness as streaming services measure it';

/** A true peak (dBTP) against the clipping point (0 dB), in words. */
export const peakWords = (truePeakDbtp: number): string =>
  truePeakDbtp > 0.05
    ? `its peaks go ${db(truePeakDbtp)} dB over the clipping point`
    : truePeakDbtp > -0.05
      ? 'its peaks touch the clipping point'
      : `its peaks stay ${db(-truePeakDbtp)} dB under the clipping point`;

/** Peak-to-loudness ratio in words: how much punch the mix still has (streaming masters sit near 8-12 dB). */
export const punchWords = (plrDb: number): string =>
  plrDb >= 14
    ? 'plenty of punch'
    : plrDb >= 9
      ? 'a healthy amount of punch'
      : 'little punch left (it is already loud)';

const bassWords = (correlation: number): string =>
  correlation >= 0.9
    ? 'its bass is centred'
    : correlation >= 0
      ? 'its bass is partly wide'
      : 'its bass cancels in mono';

/** Loudness and spectrum: how loud the track is, and what the master did to that. */
export const loudnessSentence = (original: LoudnessReport, master: LoudnessReport | null): string => {
  const from = original.integratedLufs;
  if (!Number.isFinite(from)) return 'Your track is silent: there is no loudness to measure.';
  if (!master) {
    return `Your track plays at ${db(from)} LUFS (${LUFS_MEANS}) and ${peakWords(original.truePeakDbtp)}; master it to compare.`;
  }
  const change = master.integratedLufs - from;
  const how =
    Math.abs(change) < 0.5
      ? 'kept at about the same loudness'
      : change > 0
        ? `turned up ${db(change)} dB`
        : `turned down ${db(-change)} dB`;
  return `The master is ${how}, to ${db(master.integratedLufs)} LUFS (${LUFS_MEANS}), and ${peakWords(master.truePeakDbtp)}.`;
};

/** Track analysis: punch, bass and where the loudest part is. */
export const analysisSentence = (track: TrackAnalysis): string =>
  `Your track has ${punchWords(track.plrDb)}, ${bassWords(track.lowEndCorrelation)}, and its loudest part starts at ${clock(track.loudest.startSeconds)}.`;
