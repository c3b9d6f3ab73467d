import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/messages';
import type { Db } from '../../db/client';
import { recoveryCodes, users } from '../../db/schema';
import { AppError, conflict } from '../../errors';
import { hashToken } from '../../security/tokens';
import { base32Encode, newTotpSecret, otpauthUrl, verifyTotp } from '../../security/totp';
import type { TotpSecrets } from './totp-secrets';
import type { UserRow } from './user-view';

const RECOVERY_CODE_COUNT = 10;

/** 'ABCD-EFGH' style: 40 random bits, easy to type from paper. */
const newRecoveryCode = (): string => {
  const raw = base32Encode(randomBytes(5));
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}`;
};
const normaliseRecoveryCode = (code: string): string => code.toUpperCase().replace(/[^A-Z2-7]/g, '');

export interface SecondFactor {
  otp?: string;
  recoveryCode?: string;
}

export function createTwoFactorService(db: Db, secrets: TotpSecrets, now: () => number = Date.now) {
  /** Accepts a TOTP step only if it is newer than the last one used: one conditional UPDATE, race-free. */
  const consumeStep = async (userId: number, step: number): Promise<boolean> => {
    const rows = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return rows.length === 1;
  };

  const verify = async (user: UserRow, factor: SecondFactor): Promise<boolean> => {
    if (factor.otp && user.totpSecret) {
      const secret = secrets.open(user)!;
      const step = verifyTotp(secret, factor.otp.replace(/\s/g, ''), now(), user.totpLastStep);
      if (step === null || !(await consumeStep(user.id, step))) return false;
      // A secret still in plaintext, or under a retired key, is sealed under the current key on use.
      await secrets.reseal(user);
      return true;
    }
    if (factor.recoveryCode) {
      const used = await db
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(recoveryCodes.userId, user.id),
            eq(recoveryCodes.codeHash, hashToken(normaliseRecoveryCode(factor.recoveryCode))),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return used.length === 1;
    }
    return false;
  };

  return {
    isEnabled: (user: UserRow): boolean => user.totpEnabledAt !== null,

    /** Called at login after the password matched. */
    async requireSecondFactor(user: UserRow, factor: SecondFactor): Promise<void> {
      if (user.totpEnabledAt === null) return;
      if (!factor.otp && !factor.recoveryCode)
        throw new AppError(401, 'two_factor_required', MESSAGES.twoFactorRequired);
      if (!(await verify(user, factor)))
        throw new AppError(401, 'two_factor_invalid', MESSAGES.twoFactorInvalid);
    },

    /** Starts enrolment: a new secret, inactive until confirmed with a code from the app. */
    async setup(user: UserRow): Promise<{ secret: string; otpauthUrl: string }> {
      if (user.totpEnabledAt) throw conflict(MESSAGES.twoFactorAlreadyOn);
      const secret = newTotpSecret();
      await db
        .update(users)
        .set({ ...secrets.seal(user.id, secret), totpLastStep: null })
        .where(eq(users.id, user.id));
      return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
    },

    /**
     * Confirms enrolment with a current code; returns the recovery codes, shown once. `alsoInTransaction`
     * runs in the transaction that turns it on (the routes end the account's other sessions there).
     */
    async enable(
      user: UserRow,
      otp: string,
      alsoInTransaction?: (tx: Db) => Promise<void>,
    ): Promise<string[]> {
      if (user.totpEnabledAt) throw conflict(MESSAGES.twoFactorAlreadyOn);
      if (!user.totpSecret) throw new AppError(400, 'two_factor_not_started', MESSAGES.twoFactorNotStarted);
      if (!(await verify(user, { otp })))
        throw new AppError(400, 'two_factor_invalid', MESSAGES.twoFactorInvalid);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ totpEnabledAt: sql`now()` }).where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await tx
          .insert(recoveryCodes)
          .values(codes.map((c) => ({ userId: user.id, codeHash: hashToken(normaliseRecoveryCode(c)) })));
        await alsoInTransaction?.(tx as unknown as Db);
      });
      return codes;
    },

    /** Turning it off needs a current code or a recovery code, not just the session. */
    async disable(
      user: UserRow,
      factor: SecondFactor,
      alsoInTransaction?: (tx: Db) => Promise<void>,
    ): Promise<void> {
      if (!user.totpEnabledAt) return;
      if (!(await verify(user, factor)))
        throw new AppError(400, 'two_factor_invalid', MESSAGES.twoFactorInvalid);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpKeyId: null, totpEnabledAt: null, totpLastStep: null })
          .where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        await alsoInTransaction?.(tx as unknown as Db);
      });
    },
  };
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
