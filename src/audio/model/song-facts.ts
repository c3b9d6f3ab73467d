/**
 * Round 3 (issue 27): what the beat's analysis tells the rest of the mixer. The song-facts analysis fills it;
 * the vocal chain (issue 26) takes its delay and reverb times from the tempo, and pitch correction its target
 * notes from the key. The user may edit both, so every field is a plain value, not a measurement object.
 */
export type KeyMode = 'major' | 'minor';

export interface SongKey {
  /** Pitch class of the tonic: 0 = C, 1 = C#, ... 11 = B. */
  tonic: number;
  mode: KeyMode;
}

export interface SongFacts {
  tempoBpm: number;
  /** 0..1: how sure the analysis is of the tempo (1 when the user typed it). */
  tempoConfidence: number;
  key: SongKey;
  /** 0..1, as for the tempo. */
  keyConfidence: number;
  /** Seconds of the first downbeat in the beat's own audio; the grid runs from here at the tempo. */
  downbeatSeconds: number;
  beatsPerBar: number;
}
