import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/messages';
import { MAIL_LIMITS } from '../../mail/address-budget';
import {
  client,
  describeEachDatabase,
  signedUpClient,
  verificationTokenIn,
  verifiedClient,
} from '../../test/harness';

const PASSWORD = 'correct horse battery';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describeEachDatabase('change of email address', (ctx) => {
  const mailsTo = (to: string) => ctx.mail.filter((m) => m.to.toLowerCase() === to.toLowerCase());
  const ask = (c: ReturnType<typeof client>, newEmail: string, password = PASSWORD) =>
    c.post('/api/auth/email-change', { newEmail, password });
  const userRow = async (id: number) =>
    rowsOf<{ email: string; verified: boolean; is_admin: boolean }>(
      await ctx.database.db.execute(
        sql`select email, email_verified_at is not null as verified, is_admin from users where id = ${id}`,
      ),
    )[0];
  const signedIn = async (c: ReturnType<typeof client>) => (await c.get('/api/auth/user')).status === 200;

  it('mails a link to the new address and changes nothing until it is opened', async () => {
    const { c, user } = await verifiedClient(ctx, 'old@example.test');
    const res = await ask(c, 'New@Example.test');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.emailChangeSent('New@Example.test') });
    const [link] = mailsTo('new@example.test');
    expect(link).toMatchObject({ subject: 'Confirm your new email address for Master Your Mix' });
    expect(link!.text).toContain('http://app.test/verify-email?token=');
    expect(await userRow(user.id)).toMatchObject({ email: 'old@example.test', verified: true });
    // The old address still signs in, and is not yet told anything.
    const again = client(ctx.app);
    expect(
      (await again.post('/api/auth/login', { email: 'old@example.test', password: PASSWORD })).status,
    ).toBe(200);
    expect(mailsTo('old@example.test')).toHaveLength(1);
  });

  it('moves the account when the link is opened signed in, tells the old address and ends the other sessions', async () => {
    const { c: laptop, user } = await verifiedClient(ctx, 'old@example.test');
    const phone = client(ctx.app, '10.6.0.2');
    await phone.post('/api/auth/login', { email: 'old@example.test', password: PASSWORD });
    // A reset link mailed to the old address before the change must die with it.
    await client(ctx.app).post('/api/auth/forgot-password', { email: 'old@example.test' });
    expect((await ask(laptop, 'new@example.test')).status).toBe(200);

    const token = verificationTokenIn(ctx.mail, 'new@example.test');
    const res = await laptop.post('/api/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MESSAGES.emailChanged('new@example.test') });
    expect(await userRow(user.id)).toMatchObject({ email: 'new@example.test', verified: true });
    expect((await laptop.get('/api/auth/user')).body).toMatchObject({
      email: 'new@example.test',
      emailVerified: true,
    });
    expect(await signedIn(phone)).toBe(false);

    const notice = mailsTo('old@example.test').at(-1)!;
    expect(notice.subject).toBe('The email address of your Master Your Mix account was changed');
    expect(notice.text).toContain('n•••@example.test');
    expect(notice.text).not.toContain('new@example.test');
    expect(notice.text).toContain('support@example.test');

    const oldLogin = await client(ctx.app).post('/api/auth/login', {
      email: 'old@example.test',
      password: PASSWORD,
    });
    expect(oldLogin.status).toBe(401);
    expect(
      (await client(ctx.app).post('/api/auth/login', { email: 'new@example.test', password: PASSWORD }))
        .status,
    ).toBe(200);
    const reset = mailsTo('old@example.test').find(
      (m) => m.subject === 'Reset your Master Your Mix password',
    )!;
    const resetToken = decodeURIComponent(reset.text.match(/token=([\w%-]+)/)![1]!);
    const late = await client(ctx.app).post('/api/auth/reset-password', {
      token: resetToken,
      newPassword: 'somebody else now',
    });
    expect(late.status).toBe(400);
    // The link works once.
    expect((await laptop.post('/api/auth/verify-email', { token })).status).toBe(409);
  });

  it('refuses a wrong password, the same address, a taken one and a bad one, mailing nothing', async () => {
    const { c } = await signedUpClient(ctx.app, 'mine@example.test');
    await signedUpClient(ctx.app, 'taken@example.test');
    ctx.mail.length = 0;
    const wrong = await ask(c, 'fresh@example.test', 'not my password');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: MESSAGES.wrongPassword, code: 'wrong_password' });
    const same = await ask(c, 'MINE@example.test');
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ message: MESSAGES.emailUnchanged });
    const taken = await ask(c, 'Taken@example.test');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: MESSAGES.emailTaken });
    const bad = await ask(c, 'not an address');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: MESSAGES.invalidEmail });
    expect((await c.post('/api/auth/email-change', { newEmail: 'fresh@example.test' })).status).toBe(400);
    expect(
      (await client(ctx.app).post('/api/auth/email-change', { newEmail: 'x@example.test' })).status,
    ).toBe(401);
    expect(ctx.mail).toEqual([]);
  });

  it('only the link of the newest request works, and only for the account that asked', async () => {
    const { c } = await signedUpClient(ctx.app, 'asker@example.test');
    const { c: other } = await signedUpClient(ctx.app, 'other@example.test');
    await ask(c, 'first@example.test');
    const firstToken = verificationTokenIn(ctx.mail, 'first@example.test');
    await ask(c, 'second@example.test');
    const secondToken = verificationTokenIn(ctx.mail, 'second@example.test');
    expect((await c.post('/api/auth/verify-email', { token: firstToken })).status).toBe(400);
    const stolen = await other.post('/api/auth/verify-email', { token: secondToken });
    expect(stolen.status).toBe(400);
    expect((await other.get('/api/auth/user')).body).toMatchObject({ email: 'other@example.test' });
    const res = await c.post('/api/auth/verify-email', { token: secondToken });
    expect(res.status).toBe(200);
    expect((await c.get('/api/auth/user')).body).toMatchObject({ email: 'second@example.test' });
  });

  it('refuses the change when someone registered the address meanwhile, changing nothing', async () => {
    const { c, user } = await signedUpClient(ctx.app, 'slow@example.test');
    await ask(c, 'contested@example.test');
    const token = verificationTokenIn(ctx.mail, 'contested@example.test');
    await signedUpClient(ctx.app, 'contested@example.test');
    const res = await c.post('/api/auth/verify-email', { token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: MESSAGES.emailTaken });
    expect(await userRow(user.id)).toMatchObject({ email: 'slow@example.test', verified: false });
  });

  it('takes back admin that came with the old address from ADMIN_EMAILS, and gives it to a listed new one', async () => {
    const { c: boss, user: bossUser } = await verifiedClient(ctx, 'boss@example.test');
    expect(await userRow(bossUser.id)).toMatchObject({ is_admin: true });
    await ask(boss, 'former-boss@example.test');
    await boss.post('/api/auth/verify-email', {
      token: verificationTokenIn(ctx.mail, 'former-boss@example.test'),
    });
    expect(await userRow(bossUser.id)).toMatchObject({ email: 'former-boss@example.test', is_admin: false });

    const { c: heir, user: heirUser } = await signedUpClient(ctx.app, 'heir@example.test');
    await ask(heir, 'boss@example.test');
    await heir.post('/api/auth/verify-email', { token: verificationTokenIn(ctx.mail, 'boss@example.test') });
    expect(await userRow(heirUser.id)).toMatchObject({ email: 'boss@example.test', is_admin: true });
  });

  it("counts the link against the new address's mail limit, whoever asks", async () => {
    for (let i = 0; i < 5; i++) {
      const { c } = await signedUpClient(ctx.app, `asker${i}@example.test`);
      const res = await ask(c, 'target@example.test');
      expect(res.status).toBe(i < MAIL_LIMITS.confirm.perHour ? 200 : 429);
    }
    expect(mailsTo('target@example.test')).toHaveLength(MAIL_LIMITS.confirm.perHour);
  });
});
