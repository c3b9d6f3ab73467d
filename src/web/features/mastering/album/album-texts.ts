/** The album's words (issue 31; the spec has none for it): labels, hints and toasts in one place. */
import { MASTER_REDOWNLOAD_DAYS } from '../../../../shared/api/library';
import type { Notice } from '../mastering-texts';
import { ALBUM_PLAN_NAME, MAX_ALBUM_TRACKS, MIN_ALBUM_TRACKS } from './album-rules';

export const ALBUM_TEXT = {
  modeSingle: 'Single track',
  modeAlbum: 'Album',
  title: 'Album',
  intro: `Master ${MIN_ALBUM_TRACKS} to ${MAX_ALBUM_TRACKS} tracks as one record: one genre and preset, the loudest song at the preset's target and the others at their own distance below it, sequenced with gaps or crossfades.`,
  locked: `Album mastering is part of the ${ALBUM_PLAN_NAME} and Unlimited plans.`,
  lockedLink: 'See plans',
  record: 'Record title',
  artist: 'Artist',
  addFiles: 'Add audio files',
  dropHint: 'Drop tracks here or click to choose files (WAV, MP3, OGG, FLAC, AIFF, M4A)',
  fromLibrary: 'Add from your library',
  libraryEmpty: 'No uploads or mixes in your library yet.',
  libraryAdd: (n: number) => `Add ${n} track${n === 1 ? '' : 's'}`,
  tracksTitle: 'Tracks',
  reorderHint: 'Drag a track, or use the arrow buttons (or Alt + arrow keys on a row) to change the order.',
  needTracks: `Add at least ${MIN_ALBUM_TRACKS} tracks to master an album.`,
  analysisTitle: 'Analysis side by side',
  analysisCaption:
    'Loudness (LUFS), loudness range (LRA), tilt (the highs against the low mids: lower is duller) and low end (the bass against the low mids) of every track; tracks that depart from the rest are marked.',
  masterTitle: 'Master the album',
  masterAlbum: 'Master Album',
  cancel: 'Cancel',
  sequenceTitle: 'Sequencing',
  gap: 'Gap between tracks (seconds, 0 for gapless)',
  crossfade: 'Crossfade',
  playRecord: 'Play the record',
  stop: 'Stop',
  audition: 'Audition transition',
  downloadTitle: 'Download the album',
  continuous: 'The whole record as one continuous file with a CUE sheet',
  continuousFormat: 'Continuous file format',
  download: 'Download Album',
  cost: (text: string) => `This album costs ${text}, charged once when you download. Previews are free.`,
  kept: `The ZIP is kept in your Library for ${MASTER_REDOWNLOAD_DAYS} days: download it again there without a charge.`,
  versionsLegend: (mixes: number) =>
    `Versions of the ${mixes === 1 ? 'mix' : `${mixes} mixes`} besides the main (no extra charge)`,
  withVersions:
    'Master the mixes from their stems with their versions (instrumental, a cappella, vocal up and down) for the download',
  confirmTitle: 'Download the album?',
  confirm: (text: string) => `Confirm: ${text}`,
} as const;

const error = (title: string, description: string): Notice => ({ title, description, destructive: true });

export const ALBUM_NOTICES = {
  tooMany: error('Too many tracks', `An album holds at most ${MAX_ALBUM_TRACKS} tracks.`),
  notReady: error('Album not ready', 'Wait until every track is loaded and analysed.'),
  tooFew: error('Album too short', `Add at least ${MIN_ALBUM_TRACKS} tracks to master an album.`),
  masterFailed: (message: string) => error('Mastering Failed', message),
  mastered: (n: number): Notice => ({
    title: 'Mastering Complete',
    description: `${n} tracks mastered as one album.`,
  }),
  planRequired: error('Subscription Required', 'Upgrade to Pro or Unlimited plan to download your album'),
  notMastered: error('No Mastered Album', 'Please master the album first'),
  noFormat: error('No Format Chosen', 'Choose at least one format.'),
  badIsrc: error('Invalid ISRC', 'An ISRC is 12 characters, like GB-ABC-26-00001. Correct or clear it.'),
  noCredits: error(
    'No Credits Available',
    'You need one mastering credit or crown per track to download the album. Purchase more or upgrade your plan.',
  ),
} as const;
