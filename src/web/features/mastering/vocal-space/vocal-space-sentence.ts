/**
 * Vocal space in one plain sentence (issue 30, decision 253): how much clearer the carve made the vocal
 * against the beat, as measured on the stems; the ratio before and after is under the button.
 */
import { db } from '../common/audio-numbers';

/** Under this the carve is not heard: the beat did not cover the vocal much to begin with. */
const HEARD_DB = 0.5;

export const vocalSpaceSentence = (clarityDb: number, beforeRatioDb: number): string => {
  if (clarityDb < HEARD_DB)
    return beforeRatioDb > 0
      ? `The vocal already stood above the beat where it sings, so the carve changes little (${db(clarityDb)} dB clearer).`
      : `The carve changes little here (${db(clarityDb)} dB clearer): try a higher amount.`;
  return `The beat now steps back where your vocal sings, so the vocal stands out ${db(clarityDb)} dB more clearly.`;
};
