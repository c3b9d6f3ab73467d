import { z } from 'zod';

/**
 * Issue 27 item 2: the vocal's pitch correction as the mixer saves it with the arrangement. The key has the
 * shape of the song facts' key (src/audio/model/song-facts.ts); `null` means chromatic (every semitone is a
 * target). The server checks the ranges; the DSP clamps again.
 */
export const PITCH_LIMITS = {
  amount: { min: 0, max: 100 },
  /** Time the correction takes to reach a new note: 0 is the hard "robot" step. */
  retuneMs: { min: 0, max: 400 },
  humanize: { min: 0, max: 100 },
} as const;

export const pitchKey = z.object({
  tonic: z.number().int().min(0).max(11),
  mode: z.enum(['major', 'minor']),
});

export const pitchSettings = z.object({
  amount: z.number().min(PITCH_LIMITS.amount.min).max(PITCH_LIMITS.amount.max),
  retuneMs: z.number().min(PITCH_LIMITS.retuneMs.min).max(PITCH_LIMITS.retuneMs.max),
  humanize: z.number().min(PITCH_LIMITS.humanize.min).max(PITCH_LIMITS.humanize.max),
  /** Target scale; null = chromatic. */
  key: pitchKey.nullable(),
  /** True while the key follows the detected song facts (the user has not chosen one). */
  followSongKey: z.boolean(),
});
export type PitchSettings = z.infer<typeof pitchSettings>;

export const DEFAULT_PITCH_SETTINGS: PitchSettings = {
  amount: 0,
  retuneMs: 40,
  humanize: 50,
  key: null,
  followSongKey: true,
};

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
export const noteName = (pitchClass: number): string => NOTE_NAMES[((pitchClass % 12) + 12) % 12]!;
