import { z } from 'zod';
import { DELIVERY_FORMATS } from './billing';
import { SESSION_STYLES } from './sessions';
import { positiveId, TRACK_KINDS } from './tracks';

/**
 * Issue 30: the library of a user's work (GET /api/library): uploads, mixes (final mixes and saved mixer
 * sessions) and paid masters, newest first, searchable by name; each can be renamed and deleted.
 */

/** A paid master's files can be downloaded again for this long after the spend (decision 226). */
export const MASTER_REDOWNLOAD_DAYS = 30;
/** Files of one paid download that are kept: every format of every version, or their one ZIP. */
export const MAX_MASTER_FILES = 12;
/** One kept file at most (a ZIP of five versions in six formats of a long song is the largest). */
export const MAX_MASTER_FILE_BYTES = 1024 * 1024 * 1024;

export const LIBRARY_KINDS = ['track', 'session', 'master'] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];

export const LIBRARY_MESSAGES = {
  notFound: 'Not found in your library',
  trackInUse: (uses: number) =>
    `This upload is used by ${uses} ${uses === 1 ? 'mix' : 'mixes'} in your library. Delete ${uses === 1 ? 'it' : 'them'} first.`,
  spendUnknown: 'This master was not paid for: download it from the mastering page first',
  alreadyKept: 'This download is already kept in your library',
  fileNotPaid: 'A kept file must be one of the formats paid for (or their ZIP)',
  fileType: 'A kept file must be the WAV, MP3, FLAC or ZIP that was downloaded',
  expired: `This master's files were kept for ${MASTER_REDOWNLOAD_DAYS} days and are gone: master the track again to download it`,
} as const;

const name = z
  .string({ error: 'Please give it a name' })
  .trim()
  .min(1, 'Please give it a name')
  .max(200, 'Please keep the name under 200 characters');

export const libraryQuery = z.object({
  /** Words to find in names (and a master's preset, genre and reference). */
  q: z.string().trim().max(200, 'Please search with fewer than 200 characters').optional(),
});

export const libraryItemParams = z.object({
  kind: z.enum(LIBRARY_KINDS, { error: 'kind must be track, session or master' }),
  id: positiveId('Invalid ID'),
});

export const renameBody = z.object({ name });

export const masterFileParams = z.object({
  id: positiveId('Invalid ID'),
  index: z.coerce
    .number({ error: 'Invalid file' })
    .int('Invalid file')
    .min(0)
    .max(MAX_MASTER_FILES - 1),
});

const figure = z.union([z.number().finite(), z.string().max(200), z.boolean(), z.null()]);
/** Flat name → value maps: what the page showed, kept to be shown again (never used to charge). */
const figures = z
  .record(z.string().max(60), figure)
  .refine((r) => Object.keys(r).length <= 60, 'Too many values');

/** The `meta` field (JSON) of POST /api/masters: how the master was made and what it measured. */
export const masterMeta = z.object({
  name,
  preset: z.string().trim().min(1).max(60),
  genre: z.string().trim().max(60).nullable().default(null),
  referenceName: z.string().trim().max(200).nullable().default(null),
  settings: figures.default({}),
  figures: figures.default({}),
});
export type MasterMeta = z.infer<typeof masterMeta>;

/** The text fields of POST /api/masters (multipart; the files are `file` parts, after these fields). */
export const keepMasterFields = z.object({
  /** The idempotency key the download's spend was made with: the server finds the spend by it. */
  spendKey: z.string().trim().min(8).max(100),
  meta: z.string().transform((text, ctx): MasterMeta => {
    let parsed: ReturnType<typeof masterMeta.safeParse> | null = null;
    try {
      parsed = masterMeta.safeParse(JSON.parse(text));
    } catch {
      parsed = null;
    }
    if (parsed?.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: 'The master description is not valid' });
    return z.NEVER;
  }),
});

const base = { id: z.number(), name: z.string(), createdAt: z.string(), sizeBytes: z.number() };

export const libraryUpload = z.object({
  ...base,
  kind: z.literal('upload'),
  trackType: z.enum(TRACK_KINDS),
  contentType: z.string(),
  duration: z.number(),
  audioUrl: z.string(),
});

export const libraryMix = z.object({
  ...base,
  kind: z.literal('mix'),
  audioUrl: z.string(),
  vocalTrackId: z.number(),
  instrumentalTrackId: z.number(),
  vocalShare: z.number(),
  outputVolume: z.number(),
  clipCount: z.number(),
  seconds: z.number(),
  genre: z.string().nullable(),
});

export const librarySession = z.object({
  ...base,
  kind: z.literal('session'),
  vocalTrackId: z.number().nullable(),
  instrumentalTrackId: z.number().nullable(),
  style: z.enum(SESSION_STYLES).nullable(),
  outputVolume: z.number(),
  clipCount: z.number(),
});

export const libraryMaster = z.object({
  ...base,
  kind: z.literal('master'),
  trackId: z.number().nullable(),
  preset: z.string(),
  genre: z.string().nullable(),
  referenceName: z.string().nullable(),
  settings: figures,
  figures,
  /** What was paid for (from the ledger, not from the browser). */
  versions: z.array(z.string()),
  formats: z.array(z.enum(DELIVERY_FORMATS)),
  files: z.array(z.object({ name: z.string(), sizeBytes: z.number(), url: z.string() })),
  /** Until when the files can be downloaded again without a charge. */
  keptUntil: z.string(),
});

export const libraryItem = z.discriminatedUnion('kind', [
  libraryUpload,
  libraryMix,
  librarySession,
  libraryMaster,
]);
export type LibraryItem = z.infer<typeof libraryItem>;
export type LibraryMaster = z.infer<typeof libraryMaster>;

export const libraryList = z.object({
  items: z.array(libraryItem),
  usedBytes: z.number(),
  quotaBytes: z.number(),
});
export type LibraryList = z.infer<typeof libraryList>;
