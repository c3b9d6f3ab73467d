/**
 * Issue 26: the "Suggested" genre of the mixer's mix-style step, from the beat's own analysis (decision 186).
 *
 * Four things a listener hears first in a beat, each measured from the track analysis the mastering page
 * already makes (1/3-octave mid spectrum, crest factor, loudness range):
 * - low-end weight: the bands up to 100 Hz against the body of the track (250 Hz - 2 kHz);
 * - brightness: 4 - 16 kHz against the same body;
 * - density: the crest factor (peak over RMS): a dense, compressed beat has little headroom left;
 * - movement: the loudness range (a sparse, played track breathes; a loop does not);
 * - and the tempo when the song facts know it (issue 27), which only ever adds to a score.
 *
 * Each genre has a typical value and a spread for each feature; its score is the sum of how close the beat is
 * (1 / (1 + d²), d the distance in spreads: heavy-tailed, so a beat far from every profile still goes to the
 * nearest one instead of to whichever Gaussian happens to underflow last). The best score wins, and the "why" names the two features that
 * fit the winner best, with their numbers, so the suggestion can be checked and overruled.
 */
import { GENRE_LABELS, type Genre } from '../../shared/genres';
import { THIRD_OCTAVE_CENTRES, type TrackAnalysis } from './track-analysis';

export interface BeatFeatures {
  /** dB of the bands up to 100 Hz over the 250 Hz - 2 kHz body (power sums). */
  lowWeightDb: number;
  /** dB of the 4 - 16 kHz bands over the body. */
  brightnessDb: number;
  /** Sample peak over RMS, dB. */
  crestDb: number;
  /** EBU loudness range, LU. */
  loudnessRangeLu: number;
  /** Beats per minute when known (the song facts), else null. */
  tempoBpm: number | null;
}

type Feature = 'lowWeightDb' | 'brightnessDb' | 'crestDb' | 'loudnessRangeLu';

/** Typical value and spread per feature; tempo as a list of ranges that fit (half-time trap counts twice). */
interface GenreProfile {
  centre: Record<Feature, number>;
  spread: Record<Feature, number>;
  tempo: readonly (readonly [number, number])[];
}

/**
 * Centres from typical commercial beats of each style, checked against the machine's real material (the
 * test prints the features of the Debian music tracks): hip-hop and EDM carry the most sub, EDM and pop
 * the most top, rock sits dense in the mids, acoustic and jazz keep their peaks (high crest, wide range).
 */
const PROFILES: Readonly<Record<Genre, GenreProfile>> = {
  hiphop: {
    centre: { lowWeightDb: 8, brightnessDb: -14, crestDb: 13, loudnessRangeLu: 5 },
    spread: { lowWeightDb: 4, brightnessDb: 5, crestDb: 3, loudnessRangeLu: 3 },
    tempo: [
      [60, 100],
      [130, 170],
    ],
  },
  pop: {
    centre: { lowWeightDb: 3, brightnessDb: -9, crestDb: 12, loudnessRangeLu: 6 },
    spread: { lowWeightDb: 3, brightnessDb: 4, crestDb: 3, loudnessRangeLu: 3 },
    tempo: [[90, 130]],
  },
  rnb: {
    centre: { lowWeightDb: 5, brightnessDb: -16, crestDb: 14, loudnessRangeLu: 6 },
    spread: { lowWeightDb: 3, brightnessDb: 4, crestDb: 3, loudnessRangeLu: 3 },
    tempo: [[60, 100]],
  },
  rock: {
    centre: { lowWeightDb: -2, brightnessDb: -10, crestDb: 11, loudnessRangeLu: 6 },
    spread: { lowWeightDb: 3, brightnessDb: 4, crestDb: 2.5, loudnessRangeLu: 3 },
    tempo: [[100, 180]],
  },
  edm: {
    centre: { lowWeightDb: 6, brightnessDb: -7, crestDb: 10, loudnessRangeLu: 4 },
    spread: { lowWeightDb: 3, brightnessDb: 4, crestDb: 2.5, loudnessRangeLu: 2.5 },
    tempo: [[118, 150]],
  },
  acoustic: {
    centre: { lowWeightDb: -6, brightnessDb: -15, crestDb: 17, loudnessRangeLu: 9 },
    spread: { lowWeightDb: 4, brightnessDb: 5, crestDb: 3, loudnessRangeLu: 4 },
    tempo: [[60, 140]],
  },
  jazz: {
    centre: { lowWeightDb: -4, brightnessDb: -18, crestDb: 19, loudnessRangeLu: 11 },
    spread: { lowWeightDb: 4, brightnessDb: 5, crestDb: 3.5, loudnessRangeLu: 4 },
    tempo: [[50, 200]],
  },
};

const FEATURES: readonly Feature[] = ['lowWeightDb', 'brightnessDb', 'crestDb', 'loudnessRangeLu'];

const powerSum = (levelsDb: readonly number[], lowHz: number, highHz: number): number => {
  let sum = 0;
  THIRD_OCTAVE_CENTRES.forEach((centre, i) => {
    const db = levelsDb[i]!;
    if (centre >= lowHz && centre <= highHz && Number.isFinite(db)) sum += 10 ** (db / 10);
  });
  return sum;
};

const ratioDb = (a: number, b: number): number => 10 * Math.log10(Math.max(a, 1e-20) / Math.max(b, 1e-20));

/** The features of a beat from its track analysis (the mid spectrum: what a mono listener hears). */
export const beatFeatures = (analysis: TrackAnalysis, tempoBpm: number | null = null): BeatFeatures => {
  const body = powerSum(analysis.midDb, 240, 2100);
  return {
    lowWeightDb: ratioDb(powerSum(analysis.midDb, 30, 105), body),
    brightnessDb: ratioDb(powerSum(analysis.midDb, 3900, 17000), body),
    crestDb: analysis.crestDb,
    loudnessRangeLu: Number.isFinite(analysis.loudnessRangeLu) ? analysis.loudnessRangeLu : 0,
    tempoBpm,
  };
};

export interface GenreReason {
  feature: Feature | 'tempoBpm';
  /** Plain words with the number, e.g. "Heavy low end: sub 8 dB over the mids". */
  text: string;
}

export interface GenreSuggestion {
  genre: Genre;
  /** The winner's score over the runner-up's, 0..1: how clear the choice was. */
  margin: number;
  /** Two (three with a tempo) reasons, best fitting first. */
  reasons: GenreReason[];
  scores: Record<Genre, number>;
  features: BeatFeatures;
}

const closeness = (value: number, centre: number, spread: number): number =>
  1 / (1 + ((value - centre) / spread) ** 2);

const tempoFits = (bpm: number, profile: GenreProfile): boolean =>
  profile.tempo.some(([lo, hi]) => bpm >= lo && bpm <= hi);

const signed = (db: number): string => `${db >= 0 ? '+' : '−'}${Math.abs(db).toFixed(0)}`;

/** How each feature reads in words, for the genre it is quoted for. */
const describe = (feature: Feature, f: BeatFeatures): string => {
  switch (feature) {
    case 'lowWeightDb': {
      const word =
        f.lowWeightDb >= 5 ? 'Heavy low end' : f.lowWeightDb >= 0 ? 'Solid low end' : 'Light low end';
      return `${word}: bass ${signed(f.lowWeightDb)} dB against the mids`;
    }
    case 'brightnessDb': {
      const word =
        f.brightnessDb >= -9 ? 'Bright top' : f.brightnessDb >= -14 ? 'Even top' : 'Dark, warm top';
      return `${word}: highs ${signed(f.brightnessDb)} dB against the mids`;
    }
    case 'crestDb': {
      const word = f.crestDb <= 11 ? 'Dense and compressed' : f.crestDb <= 15 ? 'Punchy' : 'Open and dynamic';
      return `${word}: peaks ${f.crestDb.toFixed(0)} dB over the average`;
    }
    case 'loudnessRangeLu': {
      const word =
        f.loudnessRangeLu <= 5 ? 'Steady level' : f.loudnessRangeLu <= 9 ? 'Some movement' : 'Wide swings';
      return `${word}: loudness range ${f.loudnessRangeLu.toFixed(0)} LU`;
    }
  }
};

export const suggestGenre = (features: BeatFeatures): GenreSuggestion => {
  const scores = {} as Record<Genre, number>;
  const fit = {} as Record<Genre, Record<Feature, number>>;
  for (const genre of Object.keys(PROFILES) as Genre[]) {
    const p = PROFILES[genre];
    const each = {} as Record<Feature, number>;
    let score = 0;
    for (const feature of FEATURES) {
      each[feature] = closeness(features[feature], p.centre[feature], p.spread[feature]);
      score += each[feature];
    }
    // A tempo only adds: an unknown tempo must not push any genre down.
    if (features.tempoBpm !== null && tempoFits(features.tempoBpm, p)) score += 0.5;
    scores[genre] = score;
    fit[genre] = each;
  }
  const ranked = (Object.keys(scores) as Genre[]).sort((a, b) => scores[b] - scores[a]);
  const genre = ranked[0]!;
  const best = scores[genre];
  const second = scores[ranked[1]!];
  const reasons: GenreReason[] = [...FEATURES]
    .sort((a, b) => fit[genre][b] - fit[genre][a])
    .slice(0, 2)
    .map((feature) => ({ feature, text: describe(feature, features) }));
  if (features.tempoBpm !== null && tempoFits(features.tempoBpm, PROFILES[genre])) {
    reasons.push({
      feature: 'tempoBpm',
      text: `${Math.round(features.tempoBpm)} BPM suits ${GENRE_LABELS[genre]}`,
    });
  }
  return { genre, margin: best > 0 ? (best - second) / best : 0, reasons, scores, features };
};
