import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { ChangeEmailBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { passwordResetTokens, users } from '../../db/schema';
import { badRequest, conflict } from '../../errors';
import type { MailMessage } from '../../mail/mailer';
import type { PasswordHasher } from '../../security/passwords';
import type { EmailVerification } from './email-verification';
import type { SessionService } from './session-service';
import type { UserRow } from './user-view';

/**
 * A change of the account's email address (decision 173): asked for with the current password, mailed as a
 * link to the new address, made when that link is opened by a signed-in session of the account, and told
 * to the old address. Until then nothing changes: the old address still signs in and receives resets.
 */

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const addressTaken = async (db: Db, address: string, exceptUserId: number): Promise<boolean> =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${address.toLowerCase()}`, ne(users.id, exceptUserId)))
      .limit(1)
  ).length > 0;

export interface EmailChangeDeps {
  adminEmails: string[];
  sessions: SessionService;
}

/**
 * Inside the transaction that consumed the change link: moves the account to `newEmail` (now proved),
 * takes back an admin role that came with the old address from ADMIN_EMAILS, voids reset links mailed to
 * the old address, and ends every other session of the account (the one redeeming the link stays).
 */
export async function applyEmailChange(
  tx: Db,
  d: EmailChangeDeps,
  userId: number,
  newEmail: string,
  keepSessionToken: string | null,
): Promise<{ changedFrom: string; changedTo: string }> {
  const [before] = await tx
    .select({ email: users.email, isAdmin: users.isAdmin, adminGrantedBy: users.adminGrantedBy })
    .from(users)
    .where(eq(users.id, userId))
    // NO KEY: as every user-row lock (decision 159), so it cannot deadlock with a foreign key check.
    .for('no key update');
  if (!before) throw badRequest(MESSAGES.verifyLinkInvalid, 'invalid_token');
  // Someone registered the address since the link was mailed: it is theirs now (the unique index decides
  // for a registration racing this very moment).
  if (await addressTaken(tx, newEmail, userId)) throw conflict(MESSAGES.emailTaken);
  const configAdmin = before.isAdmin && before.adminGrantedBy !== 'operator';
  const stillListed = d.adminEmails.includes(newEmail.toLowerCase());
  await tx
    .update(users)
    .set({
      email: newEmail,
      emailVerifiedAt: sql`now()`,
      ...(configAdmin && !stillListed ? { isAdmin: false, adminGrantedBy: null } : {}),
    })
    .where(eq(users.id, userId));
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  await d.sessions.revokeOthers(userId, keepSessionToken, tx);
  return { changedFrom: before.email, changedTo: newEmail };
}

/** "a•••@example.com": enough for the owner to recognise, not a new address handed to whoever reads the old. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${address[0]}•••${address.slice(at)}`;
}

export function emailChangedNotice(
  user: UserRow,
  from: string,
  to: string,
  supportEmail: string,
): MailMessage {
  return {
    to: from,
    subject: 'The email address of your Master Your Mix account was changed',
    text:
      `Hi ${user.username},\n\nThe email address of your Master Your Mix account is no longer ${from}: ` +
      `it was changed to ${maskAddress(to)}, and confirmed from that address.\n\n` +
      'If you made this change, there is nothing to do.\n' +
      `If you didn't, write to ${supportEmail} at once: someone who knows your password changed it, ` +
      'and we can give the account back to you.\n',
  };
}

export function createEmailChange(d: { db: Db; hasher: PasswordHasher; verification: EmailVerification }) {
  return {
    /** Checks the password and mails the link to the new address; the change waits for the link. */
    async request(user: UserRow, body: ChangeEmailBody): Promise<string> {
      if (sameAddress(body.newEmail, user.email))
        throw badRequest(MESSAGES.emailUnchanged, 'email_unchanged');
      if (!(await d.hasher.verify(body.password, user.passwordHash)))
        throw badRequest(MESSAGES.wrongPassword, 'wrong_password');
      if (await addressTaken(d.db, body.newEmail, user.id)) throw conflict(MESSAGES.emailTaken);
      await d.verification.sendLink(user, body.newEmail, 'change');
      return MESSAGES.emailChangeSent(body.newEmail);
    },
  };
}
export type EmailChange = ReturnType<typeof createEmailChange>;
