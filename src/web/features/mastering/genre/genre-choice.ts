/**
 * Which genre target the master aims at (issue 28, decision 215): the one chosen on this page, else the
 * one the mix was made for in the mixer (its arrangement), else none here — the engine then uses the genre
 * the analysis suggests. The suggestion is computed from the track's analysis with the engine's own code.
 */
import { GENRE_LABELS, type Genre } from '../../../../shared/genres';
import { suggestGenreFor, type TrackGenreSuggestion } from '../engine/engine-api';
import type { MasteringState } from '../mastering-state';

export type GenreSource = 'chosen' | 'mix' | 'suggested';

/** The genre handed to the engine; undefined: the engine suggests one. */
export const chosenGenre = (s: Pick<MasteringState, 'genre' | 'source'>): Genre | undefined =>
  s.genre ?? s.source?.arrangement?.genre ?? undefined;

export interface GenreShown {
  genre: Genre | null;
  source: GenreSource;
  suggestion: TrackGenreSuggestion | null;
}

/** What the genre field shows: the genre in force and where it comes from. */
export const genreShown = (s: Pick<MasteringState, 'genre' | 'source' | 'preset'>): GenreShown => {
  const track = s.source?.track ?? null;
  const suggestion = track ? suggestGenreFor(track) : null;
  if (s.genre) return { genre: s.genre, source: 'chosen', suggestion };
  const fromMix = s.source?.arrangement?.genre;
  if (fromMix) return { genre: fromMix, source: 'mix', suggestion };
  return { genre: suggestion?.genre ?? null, source: 'suggested', suggestion };
};

/** The words under the field (this feature's own strings; the spec has none for it). */
export const GENRE_TEXT = {
  label: 'Genre',
  fromMix: (g: Genre) => `From the mix: ${GENRE_LABELS[g]} was chosen in the mixer.`,
  soundsLike: (s: TrackGenreSuggestion) => `Sounds like: ${GENRE_LABELS[s.genre]}, because ${s.because}.`,
  waiting: 'The genre is suggested once the track is analysed.',
  remaster: (used: Genre) =>
    `The master below aimed at ${GENRE_LABELS[used]}: master again to hear this genre.`,
} as const;
