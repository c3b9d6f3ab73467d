import { and, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

const listed = (adminEmails: string[]) => inArray(sql`lower(${users.email})`, adminEmails);

/**
 * ADMIN_EMAILS makes an account admin only once its owner has proved the address (the mailed link or a
 * password reset): anyone can register an address nobody has claimed yet (decision 094). Applied at start,
 * at each login and at the moment an address is verified; `userId` narrows it to one account.
 */
export async function grantConfiguredAdmins(db: Db, adminEmails: string[], userId?: number): Promise<void> {
  if (adminEmails.length === 0) return;
  const conditions: SQL[] = [listed(adminEmails), isNotNull(users.emailVerifiedAt), eq(users.isAdmin, false)];
  if (userId !== undefined) conditions.push(eq(users.id, userId));
  await db
    .update(users)
    .set({ isAdmin: true, adminGrantedBy: 'config' })
    .where(and(...conditions));
}

/**
 * At start: an unverified account holding admin under a listed address may be the squatter this rule is
 * for, so it loses the role. Rows granted before the source was recorded count as config grants; only an
 * operator's `npm run admin -- grant` survives (decision 094).
 */
export async function revokeUnprovedConfiguredAdmins(db: Db, adminEmails: string[]): Promise<number> {
  if (adminEmails.length === 0) return 0;
  const rows = await db
    .update(users)
    .set({ isAdmin: false, adminGrantedBy: null })
    .where(
      and(
        listed(adminEmails),
        isNull(users.emailVerifiedAt),
        eq(users.isAdmin, true),
        or(isNull(users.adminGrantedBy), eq(users.adminGrantedBy, 'config')),
      ),
    )
    .returning({ id: users.id });
  return rows.length;
}

/** `npm run admin -- grant|revoke`: the operator's explicit act, whether or not the address is verified. */
export async function setAdmin(db: Db, email: string, isAdmin: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ isAdmin, adminGrantedBy: isAdmin ? 'operator' : null })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  return rows.length > 0;
}
