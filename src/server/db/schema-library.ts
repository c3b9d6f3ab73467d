import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './schema';
import { tracks } from './schema-tracks';

type Figures = Record<string, number | string | boolean | null>;

/**
 * Issue 30 (migration 0012, decision 226): a paid master, kept for the library. The money facts (what was
 * paid for) come from its ledger row, found by `spend_reference`; the rest describes how it was made.
 */
export const masters = pgTable(
  'masters',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The saved track it is a master of, when there is one (the spend named it). */
    trackId: integer('track_id').references(() => tracks.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The credit_ledger reference of the spend that paid for it: one master per spend. */
    spendReference: text('spend_reference').notNull(),
    preset: text('preset').notNull(),
    genre: text('genre'),
    referenceName: text('reference_name'),
    settings: jsonb('settings').$type<Figures>().notNull(),
    figures: jsonb('figures').$type<Figures>().notNull(),
    versions: jsonb('versions').$type<string[]>().notNull(),
    formats: jsonb('formats').$type<string[]>().notNull(),
    /** The files can be downloaded again until then; afterwards they are deleted (storage freed). */
    keptUntil: timestamp('kept_until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('masters_spend_reference_idx').on(t.spendReference),
    index('masters_user_id_idx').on(t.userId, t.id),
  ],
);

/** The files of one paid download, exactly as they were handed to the browser (decision 226). */
export const masterFiles = pgTable(
  'master_files',
  {
    id: serial('id').primaryKey(),
    masterId: integer('master_id')
      .notNull()
      .references(() => masters.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Order within the download (the URL's index). */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** Server-made storage key under the user's prefix. */
    storageKey: text('storage_key').notNull(),
  },
  (t) => [
    uniqueIndex('master_files_storage_key_idx').on(t.storageKey),
    uniqueIndex('master_files_position_idx').on(t.masterId, t.position),
    index('master_files_user_idx').on(t.userId),
    check('master_files_size_nonneg', sql`${t.sizeBytes} >= 0`),
  ],
);
