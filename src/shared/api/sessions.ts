import { z } from 'zod';
import { GENRES } from '../genres';
import { pitchSettings } from '../pitch-settings';
import { vocalChainAmountsSchema } from '../vocal-chain-stages';
import { positiveId, songFactsSchema } from './tracks';

/** Spec 4's mix styles (vocal share 75, 50, 25). */
export const SESSION_STYLES = ['vocals-forward', 'balanced', 'instrumental-forward'] as const;

/** Sources longer than this are not mixer material; the bound keeps saved numbers sane. */
const MAX_SECONDS = 24 * 3600;
const MAX_CLIPS = 1000;

/**
 * Saved sessions per user. The mixer saves one per song in progress; 50 is far beyond that and keeps a
 * scripted client from filling the database (60 saves of 370 KB took 6 s before this cap).
 */
export const MAX_SESSIONS_PER_USER = 50;
/**
 * Bytes of one saved session's JSON. The longest arrangement the schema allows with the mixer's own clip
 * ids (2 × 1000 clips at full float precision) is about 300 KB; 512 KB leaves room without letting a
 * crafted session take the whole 1 MB body limit.
 */
export const MAX_SESSION_BYTES = 512 * 1024;

export const SESSION_MESSAGES = {
  tooMany: `You can keep up to ${MAX_SESSIONS_PER_USER} saved sessions. Delete one to save a new one.`,
  tooLarge: 'This session is too large to save (at most 512 KB). Remove some clips and try again.',
} as const;
/** Seconds a clip may overshoot its source: sample rounding when the browser converts back to seconds. */
const EPSILON = 1e-6;

const seconds = (what: string) =>
  z
    .number({ error: `${what} must be a number of seconds` })
    .min(0, `${what} must not be negative`)
    .max(MAX_SECONDS, `${what} is too large`);

/** Spec 3's Clip: startTime/endTime within the source, position on the timeline (all seconds). */
export const clipSchema = z
  .object({
    id: z.string().min(1, 'A clip needs an id').max(100),
    trackType: z.enum(['vocals', 'instrumental']),
    startTime: seconds('Clip start'),
    endTime: seconds('Clip end'),
    position: seconds('Clip position'),
    selected: z.boolean().default(false),
  })
  .refine((c) => c.endTime > c.startTime, { message: 'A clip must end after it starts', path: ['endTime'] });
export type SessionClip = z.infer<typeof clipSchema>;

export const sessionClips = z.object({
  vocals: z.array(clipSchema).max(MAX_CLIPS).default([]),
  instrumental: z.array(clipSchema).max(MAX_CLIPS).default([]),
});
export type SessionClips = z.infer<typeof sessionClips>;

/** One zod issue as the end of a sentence about its field ("must be at most 300"). */
const issueText = (issue: z.core.$ZodIssue): string => {
  switch (issue.code) {
    case 'too_big':
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      return `must be at least ${issue.minimum}`;
    case 'invalid_type':
      return issue.expected === 'int'
        ? 'must be a whole number'
        : `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of ${issue.values.join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown keys: ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
};

/**
 * A nested shape shared with the mix arrangement (issue 27's song facts, pitch settings), refused with one
 * message that names the field and its range: "Song facts: tempoBpm must be at most 300". The shared schemas
 * carry no messages of their own, and the arrangement refuses them as a whole.
 */
const checkedAs = <S extends z.ZodType>(schema: S, label: string) =>
  z.custom<z.input<S>>().transform((value, ctx): z.output<S> => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue?.path.join('.');
    const text = issue ? issueText(issue) : 'is not valid';
    ctx.addIssue({ code: 'custom', message: field ? `${label}: ${field} ${text}` : `${label} ${text}` });
    return z.NEVER;
  });

/** Body of POST /api/sessions and PUT /api/sessions/:id: a whole mixer arrangement. */
export const sessionBody = z
  .object({
    name: z
      .string({ error: 'Please give the session a name' })
      .trim()
      .min(1, 'Please give the session a name')
      .max(200, 'Please keep the session name under 200 characters'),
    vocalTrackId: positiveId('Invalid track ID').nullable().default(null),
    instrumentalTrackId: positiveId('Invalid track ID').nullable().default(null),
    /** Length of each decoded source in seconds: every clip must lie inside its source. */
    vocalDuration: seconds('Vocal duration').default(0),
    instrumentalDuration: seconds('Instrumental duration').default(0),
    clips: sessionClips.default({ vocals: [], instrumental: [] }),
    style: z.enum(SESSION_STYLES).nullable().default(null),
    outputVolume: z
      .number({ error: 'Output volume must be a whole number from 0 to 100' })
      .int('Output volume must be a whole number from 0 to 100')
      .min(0, 'Output volume must be a whole number from 0 to 100')
      .max(100, 'Output volume must be a whole number from 0 to 100')
      .default(80),
    /** Issue 26: the genre picked at the mix-style step; null follows the beat's suggestion. */
    genre: z.enum(GENRES, { error: 'Unknown genre' }).nullable().default(null),
    /**
     * Issue 27: the beat's tempo, grid and key as analysed or edited; a restored session uses them instead of
     * analysing the beat again. Null: none yet (no beat, or the analysis still running).
     */
    songFacts: checkedAs(songFactsSchema, 'Song facts').nullable().default(null),
    /** Issue 27: the vocal's pitch correction; null restores the defaults (correction off). */
    pitch: checkedAs(pitchSettings, 'Pitch correction').nullable().default(null),
    /**
     * Issue 26's manual mode ("Adjust"): the stages turned down, each 0..1 as the mix arrangement and the
     * render take them (absent: as planned). Null restores every stage as planned.
     */
    vocalChain: checkedAs(vocalChainAmountsSchema, 'Vocal chain').nullable().default(null),
  })
  .superRefine((body, ctx) => {
    for (const kind of ['vocals', 'instrumental'] as const) {
      const duration = kind === 'vocals' ? body.vocalDuration : body.instrumentalDuration;
      body.clips[kind].forEach((clip, i) => {
        if (clip.trackType !== kind) {
          ctx.addIssue({
            code: 'custom',
            path: ['clips', kind, i, 'trackType'],
            message: `Clip ${clip.id} is listed under ${kind} but its trackType is ${clip.trackType}`,
          });
        }
        if (clip.endTime > duration + EPSILON) {
          ctx.addIssue({
            code: 'custom',
            path: ['clips', kind, i, 'endTime'],
            message: `Clip ${clip.id} ends at ${clip.endTime} s, after the end of its ${kind} source (${duration} s)`,
          });
        }
      });
    }
  });
export type SessionBody = z.infer<typeof sessionBody>;
export type SessionInput = z.input<typeof sessionBody>;

export const sessionIdParam = z.object({ id: positiveId('Invalid session ID') });

export const sessionView = z.object({
  id: z.number(),
  name: z.string(),
  vocalTrackId: z.number().nullable(),
  instrumentalTrackId: z.number().nullable(),
  vocalDuration: z.number(),
  instrumentalDuration: z.number(),
  clips: sessionClips,
  style: z.enum(SESSION_STYLES).nullable(),
  outputVolume: z.number(),
  genre: z.enum(GENRES).nullable(),
  songFacts: songFactsSchema.nullable(),
  pitch: pitchSettings.nullable(),
  vocalChain: vocalChainAmountsSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionView = z.infer<typeof sessionView>;

export type SessionSummary = Pick<
  SessionView,
  'id' | 'name' | 'vocalTrackId' | 'instrumentalTrackId' | 'style' | 'createdAt' | 'updatedAt'
>;

export const listSessionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: positiveId('Invalid cursor').optional(),
});

export interface SessionList {
  sessions: SessionSummary[];
  nextCursor: number | null;
}
