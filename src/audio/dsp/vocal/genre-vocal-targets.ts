/**
 * Issue 26: what each genre asks of the vocal. The target curve is the voice's long-term spectrum per band,
 * in dB per Hz relative to its 1-2 kHz reference (a spoken or sung voice falls roughly 6-9 dB an octave above
 * 1 kHz and peaks around 200-500 Hz); genres differ by a few dB: hip-hop and pop ask for a brighter, drier,
 * more compressed voice, acoustic and jazz for a fuller, more open one with a longer space. The numbers are
 * starting points an engineer would pick (decision 182), bounded so the adaptive EQ never moves a band more
 * than MAX_EQ_MOVE_DB.
 */
import type { Genre } from '../../../shared/genres';

export const BALANCE_BAND_NAMES = ['mud', 'boxiness', 'nasal', 'harsh', 'air'] as const;
export type BalanceBand = (typeof BALANCE_BAND_NAMES)[number];

export interface BalanceBandRange {
  band: BalanceBand;
  loHz: number;
  hiHz: number;
  /** Centre of the EQ band that corrects it. */
  centreHz: number;
}

export const BALANCE_BANDS: readonly BalanceBandRange[] = [
  { band: 'mud', loHz: 150, hiHz: 350, centreHz: 250 },
  { band: 'boxiness', loHz: 350, hiHz: 800, centreHz: 550 },
  { band: 'nasal', loHz: 800, hiHz: 1500, centreHz: 1100 },
  { band: 'harsh', loHz: 2500, hiHz: 5000, centreHz: 3500 },
  { band: 'air', loHz: 10_000, hiHz: 16_000, centreHz: 12_000 },
];

export interface GenreVocalTarget {
  /** Target level per band, dB per Hz relative to 1-2 kHz. */
  curve: Readonly<Record<BalanceBand, number>>;
  /** 0..1: how hard the voice is compressed (ratio 2:1 at 0 to 5:1 at 1, threshold lower with it). */
  compression: number;
  /** Most the de-esser takes off the sibilant band, dB. */
  deEssDepthDb: number;
  /** Most the beat is carved where the voice lives while it sings, dB (the vocal-space carve). */
  carveDepthDb: number;
  /** Reverb return level (0..1 of the dry voice), and its decay (RT60, seconds). */
  reverbWet: number;
  reverbDecaySeconds: number;
  /** Delay return level (0..1), the delay in beats of the song's tempo, and its feedback. */
  delayWet: number;
  delayBeats: number;
  delayFeedback: number;
}

/** The adaptive EQ's per-band limit (issue 26: "limited in range"). */
export const MAX_EQ_MOVE_DB = 6;

const BASE_CURVE: Readonly<Record<BalanceBand, number>> = {
  mud: 8,
  boxiness: 6,
  nasal: 2,
  harsh: -7,
  air: -22,
};

const curve = (moves: Partial<Record<BalanceBand, number>>): Record<BalanceBand, number> => ({
  mud: BASE_CURVE.mud + (moves.mud ?? 0),
  boxiness: BASE_CURVE.boxiness + (moves.boxiness ?? 0),
  nasal: BASE_CURVE.nasal + (moves.nasal ?? 0),
  harsh: BASE_CURVE.harsh + (moves.harsh ?? 0),
  air: BASE_CURVE.air + (moves.air ?? 0),
});

export const GENRE_VOCAL_TARGETS: Readonly<Record<Genre, GenreVocalTarget>> = {
  hiphop: {
    curve: curve({ mud: -1, boxiness: -1, air: 3 }),
    compression: 0.8,
    deEssDepthDb: 8,
    carveDepthDb: 4,
    reverbWet: 0.1,
    reverbDecaySeconds: 0.9,
    delayWet: 0.12,
    delayBeats: 0.5,
    delayFeedback: 0.25,
  },
  pop: {
    curve: curve({ boxiness: -1, air: 3 }),
    compression: 0.65,
    deEssDepthDb: 7,
    carveDepthDb: 3.5,
    reverbWet: 0.16,
    reverbDecaySeconds: 1.4,
    delayWet: 0.1,
    delayBeats: 0.75,
    delayFeedback: 0.3,
  },
  rnb: {
    curve: curve({ mud: 1, air: 2 }),
    compression: 0.55,
    deEssDepthDb: 6,
    carveDepthDb: 3,
    reverbWet: 0.2,
    reverbDecaySeconds: 1.8,
    delayWet: 0.12,
    delayBeats: 0.75,
    delayFeedback: 0.35,
  },
  rock: {
    curve: curve({ nasal: 1, harsh: 1 }),
    compression: 0.7,
    deEssDepthDb: 6,
    carveDepthDb: 4,
    reverbWet: 0.14,
    reverbDecaySeconds: 1.3,
    delayWet: 0.08,
    delayBeats: 0.25,
    delayFeedback: 0.2,
  },
  edm: {
    curve: curve({ mud: -2, boxiness: -1, air: 4 }),
    compression: 0.75,
    deEssDepthDb: 8,
    carveDepthDb: 5,
    reverbWet: 0.2,
    reverbDecaySeconds: 2.2,
    delayWet: 0.15,
    delayBeats: 0.75,
    delayFeedback: 0.4,
  },
  acoustic: {
    curve: curve({ mud: 1, boxiness: 1, air: 1 }),
    compression: 0.35,
    deEssDepthDb: 5,
    carveDepthDb: 2,
    reverbWet: 0.18,
    reverbDecaySeconds: 1.6,
    delayWet: 0.05,
    delayBeats: 1,
    delayFeedback: 0.2,
  },
  jazz: {
    curve: curve({ mud: 1, boxiness: 1 }),
    compression: 0.3,
    deEssDepthDb: 4,
    carveDepthDb: 1.5,
    reverbWet: 0.22,
    reverbDecaySeconds: 2,
    delayWet: 0.04,
    delayBeats: 1,
    delayFeedback: 0.15,
  },
};

export const vocalTargetFor = (genre: Genre): GenreVocalTarget => GENRE_VOCAL_TARGETS[genre];
