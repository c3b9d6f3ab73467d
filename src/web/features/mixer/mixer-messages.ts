import type { TrackType } from '../../../audio';
import { MESSAGES } from '../../../shared/messages';

/** Every user-facing text of the mixer screen, quoted from the spec (sections 2, 4, 5 and 8). */
export const MIXER_TEXT = {
  banner: 'Log in to try our mixer for free',
  supports: 'Supports WAV, MP3 or OGG',
  /** Issue 19's formats, beside the spec's hint (which stays as the spec words it). */
  alsoSupports: 'Also FLAC, AIFF and M4A/AAC',
  styleHint: "Press 'Apply Sequence' to continue",
  previewVolume: 'preview only, does not affect final mix',
  upgrade: 'Upgrade your subscription to continue',
  exportDisabled: 'Create a mixdown first',
  tip: 'Tip: drag vocal clips to reposition them. Only vocal clips are editable.',
} as const;

export const processingLabel = (type: TrackType): string =>
  type === 'vocals' ? 'Processing vocals...' : 'Processing instrumental...';

/** A toast: title and description, as spec 8 pairs them. */
export interface Notice {
  title: string;
  description?: string;
}

export const MIXER_NOTICES = {
  invalidType: { title: 'Invalid file type', description: MESSAGES.invalidFileType },
  tooLarge: { title: 'File too large', description: 'Please upload an audio file smaller than 100MB' },
  busy: (type: TrackType): Notice => ({
    title: 'Processing in progress',
    description: `Please wait for current ${type} track to finish processing`,
  }),
  queued: 'Your track will be processed after current processing finishes',
  starting: 'Starting processing now - please wait a moment',
  processingFailed: (type: TrackType): Notice =>
    type === 'vocals'
      ? {
          title: 'Vocal Processing Error',
          description: 'Failed to process vocal track. Please try again with a different file.',
        }
      : {
          title: 'Instrumental Processing Error',
          description: 'Failed to process instrumental track. Please try again with a different file.',
        },
  readTimeout: { title: 'Processing Error', description: 'File reading timed out' },
  processTimeout: (type: TrackType): Notice => ({
    title: 'Processing Error',
    description: type === 'vocals' ? 'Vocal processing timed out' : 'Instrumental processing timed out',
  }),
  readFailed: { title: 'Processing Error', description: 'Failed to read file' },
  audioContext: { title: 'Audio context could not be started' },
  playback: { title: 'Playback Error', description: 'There was an error playing the preview' },
  mixdownFailed: { title: 'Mixdown Failed', description: 'There was an error processing your audio tracks.' },
  missingTracks: {
    title: 'Missing tracks',
    description: 'Please upload both vocals and instrumental tracks',
  },
  noMixdown: { title: 'No Mixdown Available', description: 'Please create a mixdown first' },
  logIn: { title: 'Please Log In First', description: 'Click here to go to the login page → /auth' },
  subscription: {
    title: 'Subscription Required',
    description: 'Upgrade to Pro or Unlimited plan to download your mix',
  },
  noCredits: {
    title: 'No Credits Available',
    description: 'You need mix credits or crowns to download. Purchase more or upgrade your plan.',
  },
  downloadFailed: (reason: string): Notice => ({
    title: 'Download Failed',
    description: `There was an error preparing your mixdown for download: ${reason}`,
  }),
  previewFailed: {
    title: 'Preview Generation Failed',
    description: 'There was an error creating the audio previews with your clip positioning.',
  },
  applyFailed: { title: 'Failed to apply sequenced audio' },
  creditError: (message?: string): Notice => ({
    title: 'Credit Error',
    description: message || 'Failed to spend credit',
  }),
  downloadStarted: { title: 'Download Started' },
  processingComplete: { title: 'Processing complete' },
} as const;

/** Spec 9 time-outs and the processing toast's duration, in milliseconds. */
export const MIXER_TIMEOUTS = {
  fileRead: 60_000,
  process: { vocals: 30_000, instrumental: 60_000 } as Record<TrackType, number>,
  processingToast: 10_000,
  loginRedirect: 2_000,
} as const;
