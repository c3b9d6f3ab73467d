/**
 * The album engine pieces the album view uses, in one place (albumcore's face, src/audio/album/album-api.ts:
 * the plan, the sequence, the CUE sheet and the tags; decision 285).
 */
export {
  ALBUM_MAX_TRACKS,
  ALBUM_MIN_TRACKS,
  type AlbumFigure,
  type AlbumOverview,
  type AlbumPlan,
  type AlbumTags,
  type AlbumTrackFigures,
  AUDITION_SECONDS,
  albumMasterJob,
  albumOverview,
  cueSheet,
  DEFAULT_GAP_SECONDS,
  isValidIsrc,
  planAlbum,
  planSequence,
  type SequencedAlbum,
  type SequenceLayout,
  type SequenceOptions,
  type SpendAlbumBody,
  type SpendAlbumResponse,
  tagFlac,
  tagMp3,
  tagWav,
  transitionAudition,
} from '../../../../audio/album/album-api';
// The median the overview measures "the rest" by (not on the api's face; the words must use the same one).
export { median } from '../../../../audio/album/album-figures';
