/**
 * Issue 26: the genre a mix from the mixer arrives with, the mastering page's default for that track
 * (decision 188). The mix's saved arrangement carries it (`arrangement.genre`); a mix whose sources were
 * not saved has no arrangement, so "Export to Mastering" also puts it in the link (`&genre=`), which counts
 * only for the track that link loaded. Anything else (a dropped file, a demo) has no default: null.
 */
import { type Genre, isGenre } from '../../../../shared/genres';
import type { SourceState } from '../mastering-state';

export const GENRE_PARAM = 'genre';

/** The link from the mixer to the mastering page for a saved mix and the genre it was made for. */
export const masteringLink = (trackId: number, genre: Genre | null): string =>
  `/mastering?trackId=${trackId}${genre ? `&${GENRE_PARAM}=${genre}` : ''}`;

export const mixGenreOf = (
  source: Pick<SourceState, 'arrangement' | 'trackId'> | null,
  params: URLSearchParams,
): Genre | null => {
  if (!source) return null;
  if (source.arrangement?.genre) return source.arrangement.genre;
  const linked = params.get(GENRE_PARAM);
  const forThisTrack = source.trackId !== null && params.get('trackId') === String(source.trackId);
  return forThisTrack && isGenre(linked) ? linked : null;
};
