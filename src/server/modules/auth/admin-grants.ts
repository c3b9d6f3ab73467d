import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/** Emails listed in ADMIN_EMAILS are admins; applied at start and again at each login/registration. */
export async function grantConfiguredAdmins(db: Db, adminEmails: string[]): Promise<void> {
  if (adminEmails.length === 0) return;
  await db
    .update(users)
    .set({ isAdmin: true })
    .where(inArray(sql`lower(${users.email})`, adminEmails));
}

export async function setAdmin(db: Db, email: string, isAdmin: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ isAdmin })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .returning({ id: users.id });
  return rows.length > 0;
}
