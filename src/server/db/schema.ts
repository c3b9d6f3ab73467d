import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * One schema for PGlite and PostgreSQL. Migrations in ./migrations are generated from it
 * (`npm run db:generate`) and applied at start.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /**
     * Where is_admin came from: 'config' (ADMIN_EMAILS, only ever for a verified address) or 'operator'
     * (`npm run admin -- grant`). Null for rows granted before the source was recorded (decision 094).
     */
    adminGrantedBy: text('admin_granted_by'),
    /** When the owner of the address proved it (the mailed verification link, or a password reset). */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** pro | unlimited while subscribed; null for trial users. */
    subscriptionType: text('subscription_type'),
    /** none | active | past_due | canceled (billing issue). */
    subscriptionStatus: text('subscription_status').notNull().default('none'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade waits for the next cycle: the plan that starts then. */
    pendingPlan: text('pending_plan'),
    mixCredits: integer('mix_credits').notNull().default(0),
    masteringCredits: integer('mastering_credits').notNull().default(0),
    crowns: integer('crowns').notNull().default(0),
    /**
     * The TOTP secret, pending while totp_enabled_at is null, active once confirmed with a code. Sealed with
     * AES-256-GCM under the key totp_key_id names (security/secret-box.ts); a null key id marks a plaintext
     * Base32 secret from before encryption, sealed at start or on first use.
     */
    totpSecret: text('totp_secret'),
    totpKeyId: text('totp_key_id'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The last time step accepted, so a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
    check('users_mix_credits_nonneg', sql`${t.mixCredits} >= 0`),
    check('users_mastering_credits_nonneg', sql`${t.masteringCredits} >= 0`),
    check('users_crowns_nonneg', sql`${t.crowns} >= 0`),
    check('users_subscription_type_valid', sql`${t.subscriptionType} in ('pro', 'unlimited')`),
    check('users_admin_granted_by_valid', sql`${t.adminGrantedBy} in ('config', 'operator')`),
  ],
);

/** A session row per sign-in; the cookie and the x-auth-token carry the token, the table its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    /** What the Settings list and "sign out" name a session by: random, so it says nothing of the token. */
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Refreshed at most every few minutes by the request path (session-service.ts), with `address`. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The browser's User-Agent at sign-in (cut to 512 characters): the list shows "Chrome on Windows". */
    userAgent: text('user_agent'),
    /** The client address last seen (as TRUST_PROXY lets the server read it). */
    address: text('address'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Single-use links proving the owner of `email` reads its mail (migrations/0005_identity.sql). */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was mailed to: it proves nothing once the account's email is another one. */
    email: text('email').notNull(),
    /**
     * 'confirm': proves the account's own address. 'change': proves a new address the account asked to move
     * to; redeeming it makes `email` the account's address (decision 173).
     */
    purpose: text('purpose').notNull().default('confirm'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('email_verification_tokens_user_idx').on(t.userId),
    check('email_verification_tokens_purpose_valid', sql`${t.purpose} in ('confirm', 'change')`),
  ],
);

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export * from './schema-billing';
export * from './schema-library';
export * from './schema-mail';
// Tables of feature modules live in their own files, re-exported here so drizzle sees one schema.
export * from './schema-tracks';
export * from './schema-two-factor';
