/**
 * Versions in one plain sentence once mastered (issue 30, decision 253): how many versions were made and
 * whether the last safety limiter had to hold any of them down; the per-version peaks are under the button.
 */
import { MIX_VERSION_LABELS, type MixVersion } from '../../../../shared/mix-versions';
import { db } from '../common/audio-numbers';
import { listWords } from '../common/plain-sentences';

/** Reductions shallower than this are rounding, not the limiter at work (the panel's own threshold). */
const ACTS_DB = -0.01;

export const versionsSentence = (
  versions: readonly { version: MixVersion; safetyGainDb: number }[],
): string => {
  const held = versions.filter((v) => v.safetyGainDb < ACTS_DB);
  const all = `All ${versions.length} versions were mastered with the Main's EQ and gain`;
  if (held.length === 0) return `${all}, and none needed the safety limiter.`;
  const deepest = Math.min(...held.map((v) => v.safetyGainDb));
  const which = listWords(held.map((v) => MIX_VERSION_LABELS[v.version].replace(/ \(.*\)$/, '')));
  return `${all}; the safety limiter held ${which} down by at most ${db(-deepest)} dB to keep ${held.length === 1 ? 'its' : 'their'} peaks safe.`;
};
