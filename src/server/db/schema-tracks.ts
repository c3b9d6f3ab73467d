import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { SessionClips } from '../../shared/api/sessions';
import type { MixArrangement, SavedSongFacts } from '../../shared/api/tracks';
import type { PitchSettings } from '../../shared/pitch-settings';
import type { VocalChainAmounts } from '../../shared/vocal-chain-stages';
import { users } from './schema';

/**
 * Tables of the tracks and mixer-sessions modules (see migrations/0001_tracks.sql, written by hand to match).
 * A track row exists only for an object that was stored completely.
 */
export const tracks = pgTable(
  'tracks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** vocals | instrumental | mixed */
    type: text('type').notNull(),
    /** Decided from the file's own bytes: one of AUDIO_CONTENT_TYPES (shared/api/tracks.ts). */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Seconds as the browser reported it (the mixer sends 0). */
    duration: doublePrecision('duration').notNull().default(0),
    /** Server-made storage key; never derived from anything the user sent. */
    storageKey: text('storage_key').notNull(),
    /** Issue 18 (migration 0008): how a mixed track was made; null for single-file uploads. */
    arrangement: jsonb('arrangement').$type<MixArrangement>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tracks_storage_key_idx').on(t.storageKey),
    index('tracks_user_id_idx').on(t.userId, t.id),
    check('tracks_type_valid', sql`${t.type} in ('vocals', 'instrumental', 'mixed')`),
    check('tracks_size_nonneg', sql`${t.sizeBytes} >= 0`),
  ],
);

/** A saved mixer arrangement (spec 3: saved sessions supply clips as {vocals, instrumental}). */
export const mixerSessions = pgTable(
  'mixer_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    vocalTrackId: integer('vocal_track_id').references(() => tracks.id, { onDelete: 'set null' }),
    instrumentalTrackId: integer('instrumental_track_id').references(() => tracks.id, {
      onDelete: 'set null',
    }),
    vocalDuration: doublePrecision('vocal_duration').notNull().default(0),
    instrumentalDuration: doublePrecision('instrumental_duration').notNull().default(0),
    clips: jsonb('clips').$type<SessionClips>().notNull(),
    /** vocals-forward | balanced | instrumental-forward, or null before a style is chosen. */
    style: text('style'),
    outputVolume: integer('output_volume').notNull().default(80),
    /** Issue 26 (migration 0015): the genre picked at the mix-style step; null follows the suggestion. */
    genre: text('genre'),
    /** Issue 27 (migration 0016): the beat's tempo, grid and key as analysed or edited; null when none. */
    songFacts: jsonb('song_facts').$type<SavedSongFacts>(),
    /** Issue 27 (migration 0016): the vocal's pitch-correction settings; null when none were saved. */
    pitch: jsonb('pitch').$type<PitchSettings>(),
    /** Issue 26 (migration 0020): the manual mode's stages turned down, 0..1 each; null: all as planned. */
    vocalChain: jsonb('vocal_chain').$type<VocalChainAmounts>(),
    /** UTF-8 bytes of the saved arrangement's JSON: counts toward the owner's storage quota. */
    sizeBytes: integer('size_bytes').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mixer_sessions_user_id_idx').on(t.userId, t.id),
    check('mixer_sessions_volume_range', sql`${t.outputVolume} between 0 and 100`),
    check('mixer_sessions_size_nonneg', sql`${t.sizeBytes} >= 0`),
    check(
      'mixer_sessions_genre_valid',
      sql`${t.genre} is null or ${t.genre} in ('hiphop', 'pop', 'rnb', 'rock', 'edm', 'acoustic', 'jazz')`,
    ),
  ],
);
