import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { LoginBody, RegisterBody } from '../../../shared/api/auth';
import { usernameFromEmail } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { passwordResetTokens, recoveryCodes, users } from '../../db/schema';
import { badRequest, conflict, isUniqueViolation, unauthorized } from '../../errors';
import type { MailQueue } from '../../mail/mail-queue';
import type { MailMessage } from '../../mail/mailer';
import { isCommonPassword, type PasswordHasher } from '../../security/passwords';
import { hashToken, newToken } from '../../security/tokens';
import { grantConfiguredAdmins } from './admin-grants';
import type { SessionOrigin, SessionService } from './session-service';
import type { TwoFactorService } from './two-factor-service';
import type { UserRow } from './user-view';

export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
const PASSWORD_RESET_MAIL = 'password-reset';

export interface AuthServiceDeps {
  db: Db;
  hasher: PasswordHasher;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  mailer: MailQueue;
  publicOrigin: string;
  adminEmails: string[];
  /** Work to do before a user row goes (cancel a subscription, delete stored files). */
  accountCleanups: Array<(user: UserRow) => Promise<void>>;
}

export function createAuthService(d: AuthServiceDeps) {
  const isAdminEmail = (email: string) => d.adminEmails.includes(email.toLowerCase());

  const findByEmail = async (email: string): Promise<UserRow | undefined> =>
    (await d.db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1))[0];

  /** Run by the mail worker, never on the request path: only here does it matter whether the account exists. */
  const composePasswordReset = async (email: string): Promise<MailMessage | null> => {
    const user = await findByEmail(email);
    if (!user) return null;
    const token = newToken();
    await d.db.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const link = `${d.publicOrigin}/reset-password?token=${encodeURIComponent(token)}`;
    return {
      to: user.email,
      subject: 'Reset your Master Your Mix password',
      text:
        `Hi ${user.username},\n\nSomeone (hopefully you) asked to reset the password of your Master Your Mix account.\n` +
        `Open this link within 30 minutes to choose a new password:\n\n${link}\n\n` +
        "If you didn't ask for this, you can ignore this email: your password stays the same.\n",
    };
  };
  d.mailer.addComposer(PASSWORD_RESET_MAIL, ({ email = '' }) => composePasswordReset(email));

  const rejectCommon = (password: string) => {
    if (isCommonPassword(password)) throw badRequest(MESSAGES.passwordTooCommon, 'weak_password');
  };

  return {
    findByEmail,

    async register(body: RegisterBody, origin?: SessionOrigin): Promise<{ user: UserRow; token: string }> {
      rejectCommon(body.password);
      if (await findByEmail(body.email)) throw conflict(MESSAGES.emailTaken);
      const passwordHash = await d.hasher.hash(body.password);
      let user: UserRow;
      try {
        [user] = (await d.db
          .insert(users)
          .values({
            email: body.email,
            username: body.username ?? usernameFromEmail(body.email),
            passwordHash,
            // Never admin here: ADMIN_EMAILS waits for proof of the address (decision 094).
          })
          .returning()) as [UserRow];
      } catch (err) {
        // Two registrations racing for one email: the unique index decides.
        if (isUniqueViolation(err)) throw conflict(MESSAGES.emailTaken);
        throw err;
      }
      return { user, token: await d.sessions.create(user.id, origin) };
    },

    /** Same message and about the same work whether or not the email exists. */
    async login(body: LoginBody, origin?: SessionOrigin): Promise<{ user: UserRow; token: string }> {
      const user = await findByEmail(body.email);
      if (!user) {
        await d.hasher.verifyDummy(body.password);
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      if (!(await d.hasher.verify(body.password, user.passwordHash))) {
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      // The second factor is asked for only after the password matched, so it reveals nothing to a guesser.
      await d.twoFactor.requireSecondFactor(user, { otp: body.otp, recoveryCode: body.recoveryCode });
      let current = user;
      if (isAdminEmail(user.email) && !user.isAdmin && user.emailVerifiedAt !== null) {
        [current] = (await d.db
          .update(users)
          .set({ isAdmin: true, adminGrantedBy: 'config' })
          .where(eq(users.id, user.id))
          .returning()) as [UserRow];
      }
      // A fresh session id at every login (no session fixation).
      return { user: current, token: await d.sessions.create(user.id, origin) };
    },

    /**
     * Queues the reset mail and nothing else, so the request does the same work (one row written) whether
     * or not the account exists; the worker looks the account up (composePasswordReset).
     */
    async requestPasswordReset(email: string): Promise<void> {
      await d.mailer.sendComposed(PASSWORD_RESET_MAIL, { email });
    },

    /**
     * Consumes the token atomically (single use), sets the password and signs out every session. The mailed
     * link proves the address: it is marked verified, and a second factor enrolled while it was not yet
     * proved (possibly by someone who registered the address first) is removed (decision 093).
     */
    async resetPassword(token: string, newPassword: string): Promise<{ twoFactorRemoved: boolean }> {
      const tokenHash = hashToken(token);
      const valid = and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      );
      const [pending] = await d.db.select().from(passwordResetTokens).where(valid).limit(1);
      if (!pending) throw badRequest(MESSAGES.resetLinkInvalid, 'invalid_token');
      rejectCommon(newPassword);
      const passwordHash = await d.hasher.hash(newPassword);
      const twoFactorRemoved = await d.db.transaction(async (tx) => {
        const consumed = await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(valid)
          .returning();
        if (consumed.length === 0) throw badRequest(MESSAGES.resetLinkInvalid, 'invalid_token');
        // Locked, so a verification landing at the same moment cannot bless the factor being removed.
        const [before] = await tx
          .select({
            emailVerifiedAt: users.emailVerifiedAt,
            totpSecret: users.totpSecret,
            totpEnabledAt: users.totpEnabledAt,
          })
          .from(users)
          .where(eq(users.id, pending.userId))
          // NO KEY: as every user-row lock (decision 159), so it cannot deadlock with a foreign key check.
          .for('no key update');
        const unproved = before?.emailVerifiedAt === null;
        const removeFactor = unproved && before?.totpSecret !== null;
        await tx
          .update(users)
          .set({
            passwordHash,
            ...(unproved ? { emailVerifiedAt: sql`now()` } : {}),
            ...(removeFactor
              ? { totpSecret: null, totpKeyId: null, totpEnabledAt: null, totpLastStep: null }
              : {}),
          })
          .where(eq(users.id, pending.userId));
        if (removeFactor) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, pending.userId));
        // Every other outstanding link of this user dies with this reset.
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResetTokens.userId, pending.userId), isNull(passwordResetTokens.usedAt)));
        await d.sessions.revokeAll(pending.userId, tx as unknown as Db);
        // A set-up never confirmed goes too, but only a factor that was on is worth telling about.
        return removeFactor && before?.totpEnabledAt !== null;
      });
      await grantConfiguredAdmins(d.db, d.adminEmails, pending.userId);
      return { twoFactorRemoved };
    },

    async deleteAccount(user: UserRow): Promise<void> {
      for (const cleanup of d.accountCleanups) await cleanup(user);
      await d.db.delete(users).where(eq(users.id, user.id));
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
