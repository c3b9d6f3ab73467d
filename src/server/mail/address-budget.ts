import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailAddressSends } from '../db/schema';

/**
 * What account mail an inbox may receive, whoever asks, from wherever, for whichever account: at most
 * `perHour` in any 60 minutes and `perDay` in any 24 hours of each kind (README, Production; decision 170).
 * - confirm: a confirmation link (at registration, sent again from Settings, or for a change of address)
 * - reset: a password-reset link
 * - notice: a security notice (the account's address was changed)
 */
export const MAIL_LIMITS = {
  confirm: { perHour: 3, perDay: 5 },
  reset: { perHour: 3, perDay: 6 },
  notice: { perHour: 3, perDay: 5 },
} as const;
export type AccountMailKind = keyof typeof MAIL_LIMITS;

/** Namespace of the advisory locks taken here (the two-key form: apart from every one-key lock). */
const LOCK_CLASS = 2901;

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The inbox an address delivers to, as far as the address itself says: case folded, `+tag` sub-addresses
 * dropped (most providers deliver them to the same inbox), and Gmail's dots ignored. Only for counting:
 * the mail still goes to the address as typed.
 */
export function inboxOf(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

const digestOf = (inbox: string) => createHash('sha256').update(inbox).digest('hex');

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

export interface MailBudgetAnswer {
  allowed: boolean;
  /** When refused: seconds until the oldest mail counted leaves its window. */
  retryAfterSeconds: number;
}

/**
 * The per-inbox budget lives in the database, not in the rate limiter: it must outlive the account (a
 * register, delete, register cycle starts no fresh count), hold across every instance with or without
 * Redis, and count only mail actually queued, in sliding windows. Each `take` holds an advisory lock on its
 * inbox for one short transaction, so parallel requests cannot all slip under the limit.
 */
export function createMailBudget(db: Db) {
  return {
    /** Counts one mail of `kind` to `address` if the budget allows it; otherwise counts nothing. */
    async take(address: string, kind: AccountMailKind): Promise<MailBudgetAnswer> {
      const hash = digestOf(inboxOf(address));
      const { perHour, perDay } = MAIL_LIMITS[kind];
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${`${kind}:${hash}`}))`);
        // Rows older than a day count for nothing: forget them (every inbox's, so the table stays small).
        await tx.execute(sql`delete from mail_address_sends where sent_at < now() - interval '1 day'`);
        const [seen] = rowsOf<{ hour: number; day: number; hourWait: number; dayWait: number }>(
          await tx.execute(sql`
            select count(*) filter (where sent_at > now() - interval '1 hour')::int as "hour",
                   count(*)::int as "day",
                   coalesce(extract(epoch from min(sent_at) filter (where sent_at > now() - interval '1 hour')
                     + interval '1 hour' - now()), 0)::float8 as "hourWait",
                   coalesce(extract(epoch from min(sent_at) + interval '1 day' - now()), 0)::float8 as "dayWait"
            from mail_address_sends
            where inbox_hash = ${hash} and kind = ${kind} and sent_at > now() - interval '1 day'`),
        );
        const hour = Number(seen?.hour ?? 0);
        const day = Number(seen?.day ?? 0);
        if (hour >= perHour || day >= perDay) {
          const wait = day >= perDay ? Number(seen?.dayWait) : Number(seen?.hourWait);
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
        }
        await tx.insert(mailAddressSends).values({ inboxHash: hash, kind });
        return { allowed: true, retryAfterSeconds: 0 };
      });
    },
  };
}
export type MailBudget = ReturnType<typeof createMailBudget>;
