import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase, signedUpClient, verifiedClient } from '../../test/harness';
import { grantConfiguredAdmins, revokeUnprovedConfiguredAdmins, setAdmin } from './admin-grants';

describeEachDatabase('admin grants', (ctx) => {
  const ADMINS = ['boss@example.test'];
  const isAdmin = async (email: string) =>
    (
      (await ctx.database.db.execute(sql`select is_admin from users where email = ${email}`)) as unknown as {
        rows: Array<{ is_admin: boolean }>;
      }
    ).rows[0]?.is_admin;

  it('at start, takes admin from an unconfirmed listed account that got it by configuration', async () => {
    // As the previous version left it: ADMIN_EMAILS made the squatter admin at registration.
    await signedUpClient(ctx.app, 'boss@example.test');
    await ctx.database.db.execute(sql`update users set is_admin = true where email = 'boss@example.test'`);
    expect(await revokeUnprovedConfiguredAdmins(ctx.database.db, ADMINS)).toBe(1);
    await grantConfiguredAdmins(ctx.database.db, ADMINS);
    expect(await isAdmin('boss@example.test')).toBe(false);
  });

  it('at start, grants a confirmed listed address and leaves other admins alone', async () => {
    await verifiedClient(ctx, 'boss@example.test');
    await ctx.database.db.execute(sql`update users set is_admin = false`);
    await signedUpClient(ctx.app, 'ops@example.test');
    await ctx.database.db.execute(sql`update users set is_admin = true where email = 'ops@example.test'`);
    expect(await revokeUnprovedConfiguredAdmins(ctx.database.db, ADMINS)).toBe(0);
    await grantConfiguredAdmins(ctx.database.db, ADMINS);
    expect(await isAdmin('boss@example.test')).toBe(true);
    expect(await isAdmin('ops@example.test')).toBe(true);
  });

  it("keeps the operator's `admin grant` working, verified or not, across restarts", async () => {
    await signedUpClient(ctx.app, 'boss@example.test');
    expect(await setAdmin(ctx.database.db, 'Boss@example.test', true)).toBe(true);
    expect(await revokeUnprovedConfiguredAdmins(ctx.database.db, ADMINS)).toBe(0);
    expect(await isAdmin('boss@example.test')).toBe(true);
    expect(await setAdmin(ctx.database.db, 'boss@example.test', false)).toBe(true);
    expect(await isAdmin('boss@example.test')).toBe(false);
    expect(await setAdmin(ctx.database.db, 'nobody@example.test', true)).toBe(false);
  });
});
