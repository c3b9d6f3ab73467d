import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { emailVerificationTokens, users } from '../../db/schema';
import { badRequest, conflict } from '../../errors';
import type { Mailer } from '../../mail/mailer';
import { hashToken, newToken } from '../../security/tokens';
import { grantConfiguredAdmins } from './admin-grants';
import type { UserRow } from './user-view';

export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export interface EmailVerificationDeps {
  db: Db;
  mailer: Mailer;
  publicOrigin: string;
  adminEmails: string[];
}

/**
 * Proof that the account's owner reads the mail of its address: a single-use link, stored as a digest,
 * valid 24 hours. It is redeemed by a signed-in session of the same account (decision 093), so the owner of
 * a squatted address cannot be talked into verifying the squatter's account.
 */
export function createEmailVerification(d: EmailVerificationDeps) {
  return {
    async send(user: UserRow): Promise<void> {
      if (user.emailVerifiedAt) throw conflict(MESSAGES.emailAlreadyVerified);
      const token = newToken();
      await d.db.insert(emailVerificationTokens).values({
        tokenHash: hashToken(token),
        userId: user.id,
        email: user.email.toLowerCase(),
        expiresAt: new Date(Date.now() + VERIFY_TOKEN_TTL_MS),
      });
      const link = `${d.publicOrigin}/verify-email?token=${encodeURIComponent(token)}`;
      await d.mailer.send({
        to: user.email,
        subject: 'Confirm your email address for Master Your Mix',
        text:
          `Hi ${user.username},\n\nPlease confirm that this is your email address for Master Your Mix.\n` +
          `Open this link within 24 hours, signed in to your account:\n\n${link}\n\n` +
          "If you didn't create this account, don't open the link: someone may have used your address. " +
          'You can take the account over with "Forgot password" on the login page.\n',
      });
    },

    /** Consumes the link (with every other outstanding link of the account) and applies ADMIN_EMAILS. */
    async verify(user: UserRow, token: string): Promise<void> {
      const verified = await d.db.transaction(async (tx) => {
        const consumed = await tx
          .update(emailVerificationTokens)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(emailVerificationTokens.tokenHash, hashToken(token)),
              eq(emailVerificationTokens.userId, user.id),
              eq(emailVerificationTokens.email, user.email.toLowerCase()),
              isNull(emailVerificationTokens.usedAt),
              gt(emailVerificationTokens.expiresAt, new Date()),
            ),
          )
          .returning({ userId: emailVerificationTokens.userId });
        if (consumed.length === 0) return false;
        await tx
          .update(emailVerificationTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(emailVerificationTokens.userId, user.id), isNull(emailVerificationTokens.usedAt)));
        await tx
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
          .where(eq(users.id, user.id));
        return true;
      });
      if (!verified) {
        if (user.emailVerifiedAt) throw conflict(MESSAGES.emailAlreadyVerified);
        throw badRequest(MESSAGES.verifyLinkInvalid, 'invalid_token');
      }
      await grantConfiguredAdmins(d.db, d.adminEmails, user.id);
    },
  };
}
export type EmailVerification = ReturnType<typeof createEmailVerification>;
