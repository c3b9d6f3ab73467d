/**
 * Issue 26: the "Suggested" genre of the mixer's mix-style step, from the beat's own analysis.
 *
 * Decision 305: the mixer no longer has a suggester of its own. The genre is the one the mastering page
 * would say the beat "sounds like" (`suggestGenreFor` in genre-targets.ts: the genre whose tonal range the
 * beat leaves least, leaning by its peak-to-loudness ratio), so a user who takes the same beat to both pages
 * reads the same genre. This file puts that answer in the mixer's plain words, with the numbers the
 * mastering page quotes (bass over the mids, the slope of the top, PLR), and says when the tempo the song
 * facts know suits it. The tempo is a reason only, never a vote: the mastering page has no tempo, and a
 * vote here would let the two pages disagree again.
 */
import { GENRE_LABELS, GENRES, type Genre } from '../../shared/genres';
import { DENSE_PLR_DB, DYNAMIC_PLR_DB, genreLeanDb, suggestGenreFor } from './genre-targets';
import type { TrackAnalysis } from './track-analysis';

export interface BeatFeatures {
  /** Bass (63-125 Hz) minus mids (500 Hz-2 kHz), dB: the figure the mastering page quotes. */
  bassOverMidsDb: number;
  /** Slope of the top, 1-10 kHz, dB per octave (least squares). */
  highSlopeDbPerOctave: number;
  /** Sample peak over integrated loudness, dB: how dense the beat is. */
  plrDb: number;
  /** Beats per minute when known (the song facts), else null. */
  tempoBpm: number | null;
}

export interface GenreReason {
  feature: 'bassOverMidsDb' | 'highSlopeDbPerOctave' | 'plrDb' | 'tempoBpm';
  /** Plain words with the number, e.g. "Heavy low end: bass +8 dB against the mids". */
  text: string;
}

export interface GenreSuggestion {
  genre: Genre;
  /** dB by which the runner-up leaves its range further than the winner does: how clear the choice was. */
  marginDb: number;
  /** The low end and the top, the density when it decided, and the tempo when it suits the genre. */
  reasons: GenreReason[];
  /** Per genre, minus how far the beat leaves its range (dB, with the density's lean): higher fits better. */
  scores: Record<Genre, number>;
  features: BeatFeatures;
}

/** Tempi that suit each genre (half-time trap counts twice); only quoted as a reason. */
const GENRE_TEMPO: Readonly<Record<Genre, readonly (readonly [number, number])[]>> = {
  hiphop: [
    [60, 100],
    [130, 170],
  ],
  pop: [[90, 130]],
  rnb: [[60, 100]],
  rock: [[100, 180]],
  edm: [[118, 150]],
  acoustic: [[60, 140]],
  jazz: [[50, 200]],
};

/** Under this many dB between the winner and the runner-up, the page calls it a close call. */
export const CLOSE_CALL_DB = 0.2;

const signed = (db: number, digits = 0): string => `${db >= 0 ? '+' : '−'}${Math.abs(db).toFixed(digits)}`;

const lowEnd = (f: BeatFeatures): GenreReason => {
  const word =
    f.bassOverMidsDb >= 6 ? 'Heavy low end' : f.bassOverMidsDb >= 0 ? 'Solid low end' : 'Light low end';
  return { feature: 'bassOverMidsDb', text: `${word}: bass ${signed(f.bassOverMidsDb)} dB against the mids` };
};

const top = (f: BeatFeatures): GenreReason => {
  const s = f.highSlopeDbPerOctave;
  const word = s >= -3 ? 'Bright top' : s >= -6 ? 'Even top' : 'Dark, warm top';
  return {
    feature: 'highSlopeDbPerOctave',
    text: `${word}: highs ${signed(s, 1)} dB per octave above 1 kHz`,
  };
};

const density = (f: BeatFeatures): GenreReason | null => {
  if (f.plrDb < DENSE_PLR_DB)
    return {
      feature: 'plrDb',
      text: `Dense and compressed: peaks ${f.plrDb.toFixed(0)} dB over the loudness`,
    };
  if (f.plrDb > DYNAMIC_PLR_DB)
    return { feature: 'plrDb', text: `Open and dynamic: peaks ${f.plrDb.toFixed(0)} dB over the loudness` };
  return null;
};

const tempoFits = (bpm: number, genre: Genre): boolean =>
  GENRE_TEMPO[genre].some(([lo, hi]) => bpm >= lo && bpm <= hi);

/** The beat's suggested genre, as the mastering page would hear the same audio, in the mixer's words. */
export const suggestBeatGenre = (
  analysis: TrackAnalysis,
  tempoBpm: number | null = null,
): GenreSuggestion => {
  const heard = suggestGenreFor(analysis);
  const features: BeatFeatures = {
    bassOverMidsDb: heard.bassOverMidsDb,
    highSlopeDbPerOctave: heard.highSlopeDbPerOctave,
    plrDb: analysis.plrDb,
    tempoBpm,
  };
  const scores = Object.fromEntries(
    GENRES.map((g, i) => [g, -(heard.outsideDb[i]! + genreLeanDb(g, analysis.plrDb))]),
  ) as Record<Genre, number>;
  const genre = heard.genre;
  const runnerUp = Math.max(...GENRES.filter((g) => g !== genre).map((g) => scores[g]));
  const reasons = [lowEnd(features), top(features)];
  const dense = density(features);
  if (dense) reasons.push(dense);
  if (tempoBpm !== null && tempoFits(tempoBpm, genre))
    reasons.push({ feature: 'tempoBpm', text: `${Math.round(tempoBpm)} BPM suits ${GENRE_LABELS[genre]}` });
  return { genre, marginDb: Math.max(0, scores[genre] - runnerUp), reasons, scores, features };
};
