import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { emailVerificationTokens, users } from '../../db/schema';
import { badRequest, conflict, isUniqueViolation, tooManyRequests } from '../../errors';
import type { MailBudget } from '../../mail/address-budget';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { hashToken, newToken } from '../../security/tokens';
import { grantConfiguredAdmins } from './admin-grants';
import { applyEmailChange, type EmailChangeDeps, emailChangedNotice } from './email-change';
import type { SessionService } from './session-service';
import type { UserRow } from './user-view';

export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export type LinkPurpose = 'confirm' | 'change';

export interface EmailVerificationDeps {
  db: Db;
  mailer: Mailer;
  /** Per-address mail limits (mail/address-budget.ts): every link and notice mailed here counts. */
  budget: MailBudget;
  sessions: SessionService;
  publicOrigin: string;
  adminEmails: string[];
  supportEmail: string;
  log: { warn(msg: string): void };
  /**
   * Run after an address change is committed (the payment provider's customer gets the new address). A
   * failure is logged, not the user's: the change is made, and their sign-in address is ours to decide.
   */
  emailChanged?: Array<(userId: number, email: string) => Promise<void>>;
}

function linkMail(user: UserRow, address: string, purpose: LinkPurpose, link: string): MailMessage {
  if (purpose === 'change')
    return {
      to: address,
      subject: 'Confirm your new email address for Master Your Mix',
      text:
        `Hi ${user.username},\n\nYou asked to use this address for your Master Your Mix account instead of ` +
        `the one you use now. Open this link within 24 hours, signed in to your account, to make the change:\n\n` +
        `${link}\n\nIf you didn't ask for this, ignore this email: nothing changes.\n`,
    };
  return {
    to: address,
    subject: 'Confirm your email address for Master Your Mix',
    text:
      `Hi ${user.username},\n\nPlease confirm that this is your email address for Master Your Mix.\n` +
      `Open this link within 24 hours, signed in to your account:\n\n${link}\n\n` +
      "If you didn't create this account, don't open the link: someone may have used your address. " +
      'You can take the account over with "Forgot password" on the login page.\n',
  };
}

/**
 * Proof that the account's owner reads the mail of an address: a single-use link, stored as a digest,
 * valid 24 hours. It is redeemed by a signed-in session of the same account (decision 093), so the owner of
 * a squatted address cannot be talked into verifying the squatter's account. A 'confirm' link proves the
 * account's own address; a 'change' link proves a new one and moves the account to it (decision 173).
 */
export function createEmailVerification(d: EmailVerificationDeps) {
  const changeDeps: EmailChangeDeps = { adminEmails: d.adminEmails, sessions: d.sessions };

  /** Mails a link for `address`, within the address's budget (429 with Retry-After beyond it). */
  const sendLink = async (user: UserRow, address: string, purpose: LinkPurpose): Promise<void> => {
    const budget = await d.budget.take(address, 'confirm');
    if (!budget.allowed) throw tooManyRequests(MESSAGES.tooManyMails, budget.retryAfterSeconds);
    const token = newToken();
    await d.db.transaction(async (tx) => {
      // Only the newest change link works: an earlier one may name an address the owner has thought better of.
      if (purpose === 'change')
        await tx
          .update(emailVerificationTokens)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(emailVerificationTokens.userId, user.id),
              eq(emailVerificationTokens.purpose, 'change'),
              isNull(emailVerificationTokens.usedAt),
            ),
          );
      await tx.insert(emailVerificationTokens).values({
        tokenHash: hashToken(token),
        userId: user.id,
        email: purpose === 'change' ? address : address.toLowerCase(),
        purpose,
        expiresAt: new Date(Date.now() + VERIFY_TOKEN_TTL_MS),
      });
    });
    const link = `${d.publicOrigin}/verify-email?token=${encodeURIComponent(token)}`;
    await d.mailer.send(linkMail(user, address, purpose, link));
  };

  return {
    sendLink,

    async send(user: UserRow): Promise<void> {
      if (user.emailVerifiedAt) throw conflict(MESSAGES.emailAlreadyVerified);
      await sendLink(user, user.email, 'confirm');
    },

    /**
     * Consumes the link (with every other outstanding link of the account) and applies ADMIN_EMAILS. A
     * change link also moves the account to its address, ends the account's other sessions and tells the
     * old address. Returns the message for the user.
     */
    async verify(user: UserRow, token: string, sessionToken: string | null): Promise<string> {
      const outcome = await d.db
        .transaction(async (tx) => {
          const [consumed] = await tx
            .update(emailVerificationTokens)
            .set({ usedAt: new Date() })
            .where(
              and(
                eq(emailVerificationTokens.tokenHash, hashToken(token)),
                eq(emailVerificationTokens.userId, user.id),
                or(
                  eq(emailVerificationTokens.purpose, 'change'),
                  eq(emailVerificationTokens.email, user.email.toLowerCase()),
                ),
                isNull(emailVerificationTokens.usedAt),
                gt(emailVerificationTokens.expiresAt, new Date()),
              ),
            )
            .returning({ email: emailVerificationTokens.email, purpose: emailVerificationTokens.purpose });
          if (!consumed) return null;
          await tx
            .update(emailVerificationTokens)
            .set({ usedAt: new Date() })
            .where(and(eq(emailVerificationTokens.userId, user.id), isNull(emailVerificationTokens.usedAt)));
          if (consumed.purpose === 'change')
            return applyEmailChange(tx as unknown as Db, changeDeps, user.id, consumed.email, sessionToken);
          await tx
            .update(users)
            .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
            .where(eq(users.id, user.id));
          return { changedFrom: null, changedTo: null };
        })
        .catch((err) => {
          // A registration took the new address in the same instant: the unique index decided.
          throw isUniqueViolation(err) ? conflict(MESSAGES.emailTaken) : err;
        });
      if (!outcome) {
        if (user.emailVerifiedAt) throw conflict(MESSAGES.emailAlreadyVerified);
        throw badRequest(MESSAGES.verifyLinkInvalid, 'invalid_token');
      }
      await grantConfiguredAdmins(d.db, d.adminEmails, user.id);
      if (!outcome.changedFrom || !outcome.changedTo) return MESSAGES.emailVerified;
      for (const hook of d.emailChanged ?? []) {
        await hook(user.id, outcome.changedTo).catch((err: unknown) =>
          d.log.warn(`after the address change of account ${user.id}: ${(err as Error).message}`),
        );
      }
      // The old address is told; past its budget (someone cycling changes), the notice is dropped and logged.
      const budget = await d.budget.take(outcome.changedFrom, 'notice');
      if (budget.allowed)
        await d.mailer.send(emailChangedNotice(user, outcome.changedFrom, outcome.changedTo, d.supportEmail));
      else
        d.log.warn(`address-change notice for account ${user.id} not sent: its address's limit is reached`);
      return MESSAGES.emailChanged(outcome.changedTo);
    },
  };
}
export type EmailVerification = ReturnType<typeof createEmailVerification>;
