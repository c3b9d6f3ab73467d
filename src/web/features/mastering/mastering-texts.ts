import { MESSAGES } from '../../../shared/messages';

/** The mastering screen's user-facing texts, quoted from the spec (sections 2, 4, 5 and 8). */
export const TEXT = {
  /** Issue 18: the versions of a mixer mix. */
  versionsTitle: 'Versions',
  versionsLegend: 'Versions',
  /** Says how the files arrive: one version comes as separate files, more than one as one ZIP (issue 30). */
  versionsSummary: (versions: number, files: number) =>
    versions === 0
      ? 'Choose at least one version.'
      : versions === 1
        ? files === 1
          ? 'One file, for one credit/crown.'
          : `${files} separate files, for one credit/crown.`
        : `${versions} version(s), ${files} file(s) in one ZIP, for one credit/crown.`,
  /** Spec 2's note names "one or both formats": above versions and more formats it reads instead: */
  versionsDialogNote:
    "Select the versions and formats you want. You'll only be charged one credit/crown regardless of how many you choose.",
  versionsSingleFile:
    'This track was uploaded as a single file, so it has no versions. Mix a vocal and an instrumental in the mixer and use Export to Mastering to get Main, Instrumental, A cappella, Vocal up and Vocal down.',
  versionsLoading: 'Rendering the mix’s stems from the mixer...',
  versionsFailed: (message: string) =>
    `The stems of this mix could not be loaded${message ? ` (${message})` : ''}: it masters as a single file, without versions.`,
  versionsReady:
    'Master Track renders every version through the same master: the same EQ and gain, and the dynamics computed from the Main.',
  versionsResidual: (db: number) =>
    `Instrumental + A cappella = Main within ${Number.isFinite(db) ? `${Math.round(-db)} dB` : 'float precision'} (residual under the Main's level).`,
  bannerTitle: 'Log in to try our mastering for free',
  bannerText: 'Experience professional audio mastering with our demo tracks',
  dropFormats: 'WAV, MP3, OGG',
  /** Issue 19's formats, beside the spec's list (which stays as the spec words it). */
  dropMoreFormats: 'also FLAC, AIFF, M4A/AAC',
  uploadDifferent: 'Upload different file',
  manualHint: 'Manual mastering controls require Unlimited subscription',
  modeAutomatic: 'Automatic (Basic Presets)',
  modeManual: 'Manual (Unlimited Only)',
  masterTrack: 'Master Track',
  upgradeRequired: 'Upgrade Required',
  previewMode: 'Preview Mode',
  currentlyMuted: 'Currently muted',
  trialNoDownloads: 'Trial - No downloads',
  dialogTitle: 'Choose Download Format',
  wavCaption: 'High Quality, Uncompressed',
  mp3Caption: 'Compressed, Smaller File Size',
  moreFormats: 'More formats',
  wav24Caption: 'Studio master, TPDF dither at 24 bits',
  wav32fCaption: 'Every bit the engine made, no dither',
  flac16Caption: 'Lossless and smaller, 16-bit',
  flac24Caption: 'Lossless and smaller, 24-bit',
  rateLabel: 'Sample rate',
  // An integer rate in kHz has at most three decimals, which String() writes as toLocaleString('en-US')
  // would, without the first call's ICU set-up (about 30 ms on the main thread as the mastered state draws).
  rateSource: (rate: number) => `Source (${String(rate / 1000)} kHz)`,
  dialogNote:
    "Select one or both formats. You'll only be charged one credit/crown regardless of how many formats you choose.",
  errorTitle: 'Mastering Error',
  errorText: 'The mastering process encountered an error. Please refresh the page to try again.',
  unknownError: 'Unknown error',
  refresh: 'Refresh Page',
  /** Issue 18 "Vocal space" (only for a mixer mix with stems). */
  vocalSpace: 'Vocal space',
  vocalSpaceOff: 'Off',
  vocalSpaceHelp:
    'Carves room for the vocal in the beat: up to 5 dB less beat around 1-5 kHz, where the vocal lives, only while it sings.',
  vocalSpaceMeasuring: 'Measuring vocal clarity...',
  vocalSpaceLive: 'Heard live in manual mode with Live preview on.',
  vocalSpaceCarving: 'Making space for the vocal...',
  vocalSpaceRatio: (before: number, after: number) =>
    `Vocal-to-beat ratio at 1-5 kHz while the vocal sings: ${before.toFixed(1)} dB → ${after.toFixed(1)} dB`,
} as const;

export interface Notice {
  title: string;
  description: string;
  destructive?: boolean;
  duration?: number;
}

const error = (title: string, description: string, duration?: number): Notice => ({
  title,
  description,
  destructive: true,
  duration,
});

export const NOTICES = {
  invalidFile: error('Invalid file type', MESSAGES.invalidFileType),
  loadTrackError: (message?: string) =>
    error('Error Loading Track', message || 'Failed to load track from mixer', 5000),
  loadAudioError: (message?: string) => error('Error loading audio', message || 'Failed to load audio file'),
  audioLoaded: (name: string): Notice => ({
    title: 'Audio loaded',
    description: `${name} is ready to master`,
  }),
  trackLoaded: (name: string): Notice => ({
    title: 'Track Loaded',
    description: `${name} loaded successfully from mixer`,
  }),
  initError: error('Mastering Error', 'Failed to initialize mastering process'),
  masteringFailed: (preset: string, message: string) =>
    error('Mastering Failed', `Error applying ${preset} mastering effects: ${message}`),
  masteringWarning: error('Mastering Warning', 'Some effects failed to apply, using simplified processing'),
  processingError: error('Processing Error', 'There was an error processing the audio'),
  noAudio: error('No Audio', 'No audio source available to master'),
  noAudioLoaded: error('No Audio Loaded', 'Please upload an audio file first'),
  masteringComplete: (preset: string): Notice => ({
    title: 'Mastering Complete',
    description: `${preset} master is ready to play and download`,
  }),
  originalPlayback: error('Playback Error', 'Failed to start original audio playback'),
  noMasteredAudio: (preset: string) =>
    error('Playback Error', `No mastered audio available for ${preset} preset`),
  masteredPlayback: (preset: string) => error('Playback Error', `Failed to play mastered ${preset} audio`),
  stillMeasuring: error('Still Measuring', 'The master is still being measured: try again in a moment'),
  unlimitedRequired: error(
    'Unlimited Subscription Required',
    'Manual mastering controls are only available for Unlimited subscribers.',
  ),
  authRequired: error('Authentication Required', 'Please log in to download your mastered track'),
  subscriptionRequired: error(
    'Subscription Required',
    'Upgrade to Pro or Unlimited plan to download your mastered track',
  ),
  noMasteredTrack: error('No Mastered Track', 'Please master your track first'),
  noCredits: error(
    'No Credits Available',
    'You need mastering credits or crowns to download. Purchase more or upgrade your plan.',
  ),
  downloadNoTrack: error('Download Error', 'No mastered track available for download'),
  downloadNotReady: error('Download Error', 'Audio buffer not ready for download'),
  downloadFailed: (message?: string) =>
    error('Download Failed', message || 'Failed to download mastered track'),
  creditError: (message?: string) => error('Credit Error', message || 'Failed to process credit'),
  downloadStarted: (names: string[]): Notice => ({
    title: 'Download Started',
    description: names.join(', '),
  }),
  /** Issue 30: the download happened, but its files could not be kept for the library. */
  keepFailed: (why: string): Notice => ({
    title: 'Not kept in your library',
    description: `${why}. Your download is complete; keep the files you saved.`,
    destructive: true,
  }),
} as const;

/** Fetch failures (spec 8), worded exactly. */
export const fetchTrackFailed = (status: number, text: string) => `Failed to fetch track: ${status} ${text}`;
export const fetchAudioFailed = (status: number) => `Failed to fetch audio data: ${status}`;
export const INVALID_TRACK_ID = 'Invalid track ID';
export const NO_AUDIO_URL = 'Track has no audio URL';
