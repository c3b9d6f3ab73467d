/**
 * The one plain sentence each mixer panel opens with (issue 30, decision 253): what it found and what the
 * mix does about it, in words, from the panel's own measurements; the numbers are one click away under it.
 * Pure, for the panels and their unit test.
 */
import { bpmText, keyName, type PitchCurveView, type SongFacts, type VocalChainReport } from '../../../audio';
import { GENRE_LABELS } from '../../../shared/genres';
import { noteName, type PitchSettings } from '../../../shared/pitch-settings';
import type { Finding } from './vocal-analysis/vocal-findings';

const listWords = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
const plural = (n: number, one: string, many: string) => (n === 1 ? `one ${one}` : `${n} ${many}`);

/** What we hear in your vocal: the fixes the chain will make, or that it needs none. */
export const vocalSentence = (findings: readonly Finding[]): string => {
  const fixes = findings.flatMap((f) => (f.acts && f.fix ? [f.fix] : []));
  if (fixes.length === 0) return 'Your vocal is clean and even, so the mix leaves it as it is.';
  return `We heard ${plural(fixes.length, 'thing', 'things')} to fix: the mix will ${listWords(fixes)}.`;
};

/** Moves this small are not worth a word in the sentence (they stay in the numbers). */
const HEARD_DB = 1;

/** What the mix did: the vocal chain's moves that a listener would notice. */
export const mixMovesSentence = (r: VocalChainReport): string => {
  const did: string[] = [];
  if (r.noiseRemovedDb <= -HEARD_DB) did.push('cleaned the noise in the pauses');
  if (r.breathsLowered > 0) did.push(`lowered ${plural(r.breathsLowered, 'breath', 'breaths')}`);
  const repaired = r.clicksRepaired + r.clippedRepaired;
  if (repaired > 0) did.push(`repaired ${plural(repaired, 'click or clip', 'clicks and clips')}`);
  const ride = Math.max(Math.abs(r.ridingMinDb), Math.abs(r.ridingMaxDb));
  if (ride >= HEARD_DB) did.push(`evened out the phrases by up to ${ride.toFixed(1)} dB`);
  const eq = r.eqMoves.filter((m) => m.band !== 'highpass').length;
  if (eq > 0) did.push(`shaped the tone with ${plural(eq, 'EQ move', 'EQ moves')}`);
  if (r.deEssBandHz && Math.abs(r.deEssMaxDb) >= HEARD_DB) did.push("tamed the 's' sounds");
  if (r.reverbWet > 0) did.push(`gave the voice ${r.reverbDecaySeconds.toFixed(1)} s of reverb`);
  if (r.unmaskingAmount > 0) did.push('made the beat step back while the voice sings');
  const aim = `Aimed at ${GENRE_LABELS[r.genre]}`;
  return did.length === 0
    ? `${aim}, the mix left the vocal almost as it was.`
    : `${aim}, the mix ${listWords(did)}.`;
};

/** Below this the analysis is guessing; the sentence says so and asks the user to check. */
const SURE = 0.6;

/** Song facts: the key and tempo, and which of them is a guess. */
export const songFactsSentence = (
  f: Pick<SongFacts, 'key' | 'tempoBpm' | 'keyConfidence' | 'tempoConfidence'>,
): string => {
  const said = `Your beat is in ${keyName(f.key)} at ${bpmText(f.tempoBpm)} beats per minute`;
  const keySure = f.keyConfidence >= SURE;
  const tempoSure = f.tempoConfidence >= SURE;
  if (keySure && tempoSure) return `${said}.`;
  if (!keySure && !tempoSure) return `${said}, but both are guesses: check them with Edit.`;
  return `${said}, but the ${keySure ? 'tempo' : 'key'} is a guess: check it with Edit.`;
};

export interface PitchFigures {
  /** Mean distance of the sung pitch from the target notes, cents (NaN: nothing sung). */
  beforeCents: number;
  /** The same after the correction at the current settings. */
  afterCents: number;
  /** Share of the sung frames more than a quarter-tone's half (25 cents) off, before correction. */
  offShare: number;
  sungSeconds: number;
}

/** Off-note distances from the worker's curves (MIDI pitch per frame, NaN where unvoiced). */
export const pitchFigures = (
  curve: Pick<PitchCurveView, 'hop' | 'sampleRate' | 'target' | 'detected' | 'corrected'>,
): PitchFigures => {
  let n = 0;
  let before = 0;
  let after = 0;
  let off = 0;
  for (let i = 0; i < curve.detected.length; i++) {
    const d = curve.detected[i]!;
    const t = curve.target[i]!;
    const c = curve.corrected[i]!;
    if (Number.isNaN(d) || Number.isNaN(t)) continue;
    const b = Math.abs(d - t) * 100;
    n++;
    before += b;
    after += Number.isNaN(c) ? b : Math.abs(c - t) * 100;
    if (b > 25) off++;
  }
  return {
    beforeCents: n ? before / n : Number.NaN,
    afterCents: n ? after / n : Number.NaN,
    offShare: n ? off / n : 0,
    sungSeconds: (n * curve.hop) / curve.sampleRate,
  };
};

/** In tune enough that a listener hears no correction (a tenth of a semitone). */
const IN_TUNE_CENTS = 10;

/** Pitch correction: how far the vocal is off the key's notes, and where these settings put it. */
export const pitchSentence = (f: PitchFigures, settings: Pick<PitchSettings, 'key' | 'amount'>): string => {
  if (Number.isNaN(f.beforeCents)) return 'We found no sung notes in the vocal to tune.';
  const key = settings.key ? `${noteName(settings.key.tonic)} ${settings.key.mode}` : null;
  const notes = key ? `the notes of ${key}` : 'the nearest notes';
  const before = Math.round(f.beforeCents);
  if (f.beforeCents < IN_TUNE_CENTS)
    return `Your vocal is already in tune with ${notes} (${before} cents off on average, where 100 cents make a semitone), so the correction changes little.`;
  const then =
    settings.amount === 0
      ? 'at Amount 0 it stays as recorded'
      : `with these settings it lands ${Math.round(f.afterCents)} cents off`;
  return `Your vocal sits ${before} cents off ${notes} on average (100 cents make a semitone); ${then}.`;
};
