/**
 * The one plain sentence each mastering panel opens with (issue 30, decision 245): what it found and what
 * the master did, in words; the numbers stay in the panel under it.
 */
import type { LoudnessReport, TrackAnalysis } from '../engine/engine-api';
import { db } from './audio-numbers';

const clock = (s: number): string => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

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
  if (!master) {
    return `Your track plays at ${db(from)} LUFS and peaks at ${db(original.truePeakDbtp)} dBTP; master it to compare.`;
  }
  const change = master.integratedLufs - from;
  const how =
    Math.abs(change) < 0.5
      ? 'kept at about the same loudness'
      : change > 0
        ? `turned up ${db(change)} dB`
        : `turned down ${db(-change)} dB`;
  return `The master is ${how}, to ${db(master.integratedLufs)} LUFS, with its peaks at ${db(master.truePeakDbtp)} dBTP.`;
};

/** Track analysis: punch, bass and where the loudest part is. */
export const analysisSentence = (track: TrackAnalysis): string =>
  `Your track has ${punchWords(track.plrDb)}, ${bassWords(track.lowEndCorrelation)}, and its loudest part starts at ${clock(track.loudest.startSeconds)}.`;
