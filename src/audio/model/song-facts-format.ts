import type { SongFacts, SongKey } from './song-facts';

/** Pitch-class names as a key signature spells them most often (flats for Eb, Ab, Bb; sharps for C#, F#). */
export const PITCH_CLASS_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

export const keyName = (key: SongKey): string => `${PITCH_CLASS_NAMES[key.tonic] ?? '?'} ${key.mode}`;

/** A tempo as the page shows it: whole BPM when it is within 0.05 of one, else one decimal. */
export const bpmText = (bpm: number): string => {
  const whole = Math.round(bpm);
  return Math.abs(bpm - whole) < 0.05 ? String(whole) : bpm.toFixed(1);
};

/** "A minor · 96 BPM" (issue 27). */
export const songFactsText = (f: Pick<SongFacts, 'key' | 'tempoBpm'>): string =>
  `${keyName(f.key)} · ${bpmText(f.tempoBpm)} BPM`;

/** Tempo bounds the page and the server accept (decision 195). */
export const MIN_TEMPO_BPM = 30;
export const MAX_TEMPO_BPM = 300;
