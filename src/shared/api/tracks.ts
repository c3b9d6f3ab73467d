import { z } from 'zod';
import { GENRES } from '../genres';
import { MESSAGES } from '../messages';
import { pitchSettings } from '../pitch-settings';
import { vocalChainAmountsSchema } from '../vocal-chain-stages';

/** Spec 5: mixer uploads are at most 100 MB. */
export const MAX_TRACK_BYTES = 100 * 1024 * 1024;

/** Spec 3: vocals and instrumental come from the mixer inputs, mixed is the saved final mix. */
export const TRACK_KINDS = ['vocals', 'instrumental', 'mixed'] as const;
export type TrackKind = (typeof TRACK_KINDS)[number];

/** The types the server recognises from a file's first bytes (spec 5's audio/mp3 is served as audio/mpeg). */
export const AUDIO_CONTENT_TYPES = [
  'audio/wav',
  'audio/mpeg',
  'audio/ogg',
  // Issue 19: studio and Apple formats beside the spec's three.
  'audio/flac',
  'audio/aiff',
  'audio/mp4',
  'audio/aac',
] as const;
export type AudioContentType = (typeof AUDIO_CONTENT_TYPES)[number];

/**
 * Issue 19: what browsers call the formats accepted beside the spec's WAV, MP3 and OGG (the server decides
 * from the bytes anyway), and their extensions for files the browser gives no type.
 */
export const STUDIO_UPLOAD_TYPES: readonly string[] = [
  'audio/flac',
  'audio/x-flac',
  'audio/aiff',
  'audio/x-aiff',
  'audio/aifc',
  'audio/x-aifc',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'audio/aac',
  'audio/x-aac',
];
export const STUDIO_UPLOAD_EXTENSIONS = /\.(flac|aif|aiff|aifc|m4a|aac)$/i;

/** Ids are positive integers (the mastering screen's trackId rule), at most PostgreSQL's int range. */
export const positiveId = (message: string) =>
  z
    .union([z.string(), z.number()], { error: message })
    .transform((v) => String(v))
    .pipe(z.string().regex(/^[1-9]\d{0,9}$/, message))
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, message));

export const trackIdParam = z.object({ id: positiveId(MESSAGES.invalidTrackId) });

/** A saved mix's arrangement holds at most this many clips (the JSON stays within the form field's 64 KiB). */
export const MAX_ARRANGEMENT_CLIPS = 400;
export const ARRANGEMENT_MESSAGES = {
  invalid: 'The mix arrangement is not valid',
  onlyMixed: 'Only a mixed track carries a mix arrangement',
  sources: 'The mix arrangement must name your own vocals and instrumental tracks',
} as const;

const sampleIndex = z.number().int().min(0).max(2_147_483_647);

/**
 * Issue 27: the beat's tempo, grid and key saved with the arrangement (decision 195). Ranges: a tempo a
 * beat can have (30–300 BPM, the page's edit bounds), confidences 0..1, a tonic pitch class 0..11, a first
 * downbeat within the first hour, 2–12 beats to the bar.
 */
export const songFactsSchema = z.object({
  tempoBpm: z.number().min(30).max(300),
  tempoConfidence: z.number().min(0).max(1),
  key: z.object({ tonic: z.number().int().min(0).max(11), mode: z.enum(['major', 'minor']) }),
  keyConfidence: z.number().min(0).max(1),
  downbeatSeconds: z.number().min(0).max(3600),
  beatsPerBar: z.number().int().min(2).max(12),
});
export type SavedSongFacts = z.infer<typeof songFactsSchema>;

/**
 * Issue 18: how a mixdown was made, stored with the mixed track so the mastering page can render its stems
 * again (the versions): the two source tracks, every clip in samples at the timeline's rate, the output
 * length, the style's vocal share and the output volume.
 */
export const mixArrangement = z
  .object({
    vocalTrackId: positiveId(ARRANGEMENT_MESSAGES.sources),
    instrumentalTrackId: positiveId(ARRANGEMENT_MESSAGES.sources),
    sampleRate: z.number().int().min(8000).max(384_000),
    length: sampleIndex.min(1),
    vocalShare: z.number().min(0).max(100),
    outputVolume: z.number().int().min(0).max(100),
    clips: z
      .array(
        z.object({
          id: z.string().min(1).max(100),
          trackType: z.enum(['vocals', 'instrumental']),
          sourceStart: sampleIndex,
          sourceEnd: sampleIndex,
          position: sampleIndex,
        }),
      )
      .max(MAX_ARRANGEMENT_CLIPS),
    /** Round 3 (issues 26, 28): the genre the mix aimed at, the mastering page's default for this track. */
    genre: z.enum(GENRES).optional(),
    /** Round 3 (issue 27): the vocal's pitch correction (ranges checked here, on the server too). */
    pitch: pitchSettings.optional(),
    /** Issue 26: the stages the user turned down in "Adjust" (0..1; absent: as planned), so stems sum to the mix. */
    vocalChain: vocalChainAmountsSchema.optional(),
    /** Issue 27: the beat's key and tempo as analysed or edited when the mix was made. */
    songFacts: songFactsSchema.optional(),
  })
  .refine((a) => a.clips.every((c) => c.sourceEnd > c.sourceStart), {
    message: ARRANGEMENT_MESSAGES.invalid,
  });
export type MixArrangement = z.infer<typeof mixArrangement>;

/** The multipart `arrangement` field: the arrangement's JSON text, refused as a whole with one message. */
export const arrangementField = z.string().transform((text, ctx): MixArrangement => {
  let parsed: ReturnType<typeof mixArrangement.safeParse> | null = null;
  try {
    parsed = mixArrangement.safeParse(JSON.parse(text));
  } catch {
    parsed = null;
  }
  if (parsed?.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: ARRANGEMENT_MESSAGES.invalid });
  return z.NEVER;
});

/** The text fields of POST /api/tracks (multipart; the file itself is the `audio` part). */
export const uploadTrackFields = z.object({
  type: z.enum(TRACK_KINDS, { error: 'Track type must be vocals, instrumental or mixed' }),
  name: z
    .string({ error: 'Please give the track a name' })
    .trim()
    .min(1, 'Please give the track a name')
    .max(200, 'Please keep the track name under 200 characters'),
  /** Seconds; the mixer sends 0 (spec 3). Multipart fields arrive as text. */
  duration: z.coerce
    .number({ error: 'Duration must be a number of seconds' })
    .min(0, 'Duration must be a number of seconds')
    .max(24 * 3600, 'Duration must be a number of seconds')
    .default(0),
  /** Issue 18: a mixed track's arrangement (JSON text); absent for every other upload. */
  arrangement: arrangementField.optional(),
});
export type UploadTrackFields = z.infer<typeof uploadTrackFields>;

export const trackView = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  type: z.enum(TRACK_KINDS),
  audioUrl: z.string(),
  contentType: z.enum(AUDIO_CONTENT_TYPES),
  size: z.number().int().nonnegative(),
  duration: z.number(),
  createdAt: z.string(),
  /** Issue 18: how a mixdown was made; null for a track uploaded as a single file. */
  arrangement: mixArrangement.nullable(),
});
export type TrackView = z.infer<typeof trackView>;

export const listTracksQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Keyset cursor: the `nextCursor` of the previous page. */
  before: positiveId('Invalid cursor').optional(),
});
export type ListTracksQuery = z.infer<typeof listTracksQuery>;

export interface TrackList {
  tracks: TrackView[];
  /** Pass as `before` to get the next (older) page; null on the last page. */
  nextCursor: number | null;
  usedBytes: number;
  quotaBytes: number;
}

const formatBytes = (n: number): string =>
  n >= 1024 ** 3 ? `${+(n / 1024 ** 3).toFixed(1)} GB` : `${Math.ceil(n / 1024 ** 2)} MB`;

/** Shown when an upload (or a session save: `to` says which) would take the user past their quota. */
export const quotaExceededMessage = (quotaBytes: number, to = 'upload more'): string =>
  `You have used your ${formatBytes(quotaBytes)} of storage. Delete some tracks or saved sessions to ${to}.`;
