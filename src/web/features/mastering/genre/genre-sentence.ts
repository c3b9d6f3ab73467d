/**
 * The genre field's first line (issue 30, decision 253): which genre the master aims at and why, in words;
 * the analysis's figures ("bass +2.1 dB over the mids …") are under the button.
 */
import { GENRE_LABELS, type Genre } from '../../../../shared/genres';
import type { GenreShown } from './genre-choice';

export const genreSentence = (shown: GenreShown, mixGenre: Genre | null): string | null => {
  if (!shown.genre) return null;
  const aim = `the master aims at ${GENRE_LABELS[shown.genre]}'s tone and punch`;
  const heard = shown.suggestion?.genre;
  if (shown.source === 'mix' && mixGenre)
    return `You made this mix as ${GENRE_LABELS[mixGenre]} in the mixer, so ${aim}.`;
  if (shown.source === 'chosen')
    return heard && heard !== shown.genre
      ? `You chose ${GENRE_LABELS[shown.genre]}, so ${aim}, though the track itself sounds closest to ${GENRE_LABELS[heard]}.`
      : `You chose ${GENRE_LABELS[shown.genre]}, so ${aim}.`;
  return `Your track sounds closest to ${GENRE_LABELS[shown.genre]}, so ${aim}.`;
};
