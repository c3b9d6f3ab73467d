import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { QueuedMail } from '../mail/mail-queue';

/**
 * Mail waiting to be sent (migrations/0006_mail_queue.sql). A row is written where a mail is asked for and
 * deleted once the transport accepted it; `failed_at` marks one given up after its last attempt.
 * `locked_until` is the lease of the worker sending it: a worker that dies mid-send leaves it to another.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    message: jsonb('message').$type<QueuedMail>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.failedAt} IS NULL`)],
);

/**
 * Account mail sent to one inbox (migrations/0011_account_hardening.sql): one row per mail, kept a day, so
 * the per-address limits hold across clients, instances and deleted accounts (mail/address-budget.ts,
 * decision 170). The inbox is stored as a SHA-256 digest only: the table outlives the accounts.
 */
export const mailAddressSends = pgTable(
  'mail_address_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    inboxHash: text('inbox_hash').notNull(),
    /** confirm | reset | notice (MAIL_LIMITS). */
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_address_sends_inbox_idx').on(t.inboxHash, t.kind, t.sentAt),
    index('mail_address_sends_sent_idx').on(t.sentAt),
  ],
);
