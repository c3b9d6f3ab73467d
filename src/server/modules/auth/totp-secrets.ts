import { and, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { SecretBox } from '../../security/secret-box';
import type { UserRow } from './user-view';

type SecretColumns = Pick<UserRow, 'id' | 'totpSecret' | 'totpKeyId'>;

/** Bound into every seal, so a sealed secret copied onto another user's row does not open (decision 095). */
const contextOf = (userId: number) => `totp:${userId}`;

/**
 * users.totp_secret at rest: sealed with AES-256-GCM under the current TOTP key. A row records the id of the
 * key that sealed it; a null id is a plaintext secret from before encryption.
 */
export function createTotpSecrets(db: Db, box: SecretBox) {
  const seal = (userId: number, secret: string) => {
    const { keyId, box: sealed } = box.seal(secret, contextOf(userId));
    return { totpSecret: sealed, totpKeyId: keyId };
  };

  const open = (row: SecretColumns): string | null => {
    if (row.totpSecret === null) return null;
    if (row.totpKeyId === null) return row.totpSecret;
    return box.open({ keyId: row.totpKeyId, box: row.totpSecret }, contextOf(row.id));
  };

  /**
   * Seals a plaintext row, or one sealed under an older key, under the current key. Only if the row still
   * holds what was read: a set-up or a removal in between wins.
   */
  const reseal = async (row: SecretColumns): Promise<boolean> => {
    const plaintext = open(row);
    if (plaintext === null || row.totpKeyId === box.currentKeyId) return false;
    const updated = await db
      .update(users)
      .set(seal(row.id, plaintext))
      .where(
        and(
          eq(users.id, row.id),
          eq(users.totpSecret, row.totpSecret!),
          row.totpKeyId === null ? isNull(users.totpKeyId) : eq(users.totpKeyId, row.totpKeyId),
        ),
      )
      .returning({ id: users.id });
    return updated.length === 1;
  };

  return {
    seal,
    open,
    reseal,

    /**
     * At start: every plaintext secret and every secret under a key other than the current one is sealed
     * anew, which is what a key rotation needs. Rows under a key no longer configured cannot be opened; they
     * are counted so the operator hears of them.
     */
    async resealAll(): Promise<{ resealed: number; unreadable: number }> {
      const rows = await db
        .select({ id: users.id, totpSecret: users.totpSecret, totpKeyId: users.totpKeyId })
        .from(users)
        .where(
          and(
            isNotNull(users.totpSecret),
            or(isNull(users.totpKeyId), ne(users.totpKeyId, box.currentKeyId)),
          ),
        );
      let resealed = 0;
      let unreadable = 0;
      for (const row of rows) {
        if (row.totpKeyId !== null && !box.hasKey(row.totpKeyId)) unreadable++;
        else if (await reseal(row)) resealed++;
      }
      return { resealed, unreadable };
    },
  };
}
export type TotpSecrets = ReturnType<typeof createTotpSecrets>;
