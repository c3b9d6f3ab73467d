import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createSecretBox } from '../../security/secret-box';
import { newTotpSecret, timeStep, totpCode } from '../../security/totp';
import { client, describeEachDatabase, enableTwoFactor, signedUpClient } from '../../test/harness';
import { createTotpSecrets } from './totp-secrets';

const password = 'correct horse battery';

describeEachDatabase('TOTP secrets at rest', (ctx) => {
  const stored = async (email: string) =>
    (
      (await ctx.database.db.execute(
        sql`select totp_secret, totp_key_id from users where email = ${email}`,
      )) as unknown as { rows: Array<{ totp_secret: string | null; totp_key_id: string | null }> }
    ).rows[0]!;
  const currentBox = () => createSecretBox(ctx.config.totpKeys!);

  /** An account whose 2FA was turned on before secrets were sealed: its secret is plaintext Base32. */
  const legacyAccount = async (email: string) => {
    await signedUpClient(ctx.app, email);
    const secret = newTotpSecret();
    await ctx.database.db.execute(
      sql`update users set totp_secret = ${secret}, totp_key_id = null, totp_enabled_at = now() where email = ${email}`,
    );
    return secret;
  };
  const loginWith = (email: string, otp: string) =>
    client(ctx.app).post('/api/auth/login', { email, password, otp });

  it('stores the secret sealed under the current key, never as plaintext', async () => {
    const { c, user } = await signedUpClient(ctx.app, 'sealed@example.test');
    const { secret } = await enableTwoFactor(c);
    const row = await stored('sealed@example.test');
    expect(row.totp_key_id).toBe('test');
    expect(row.totp_secret).not.toContain(secret);
    expect(row.totp_secret).not.toContain(secret.slice(0, 8));
    // Opening needs the key and the row's own user id.
    expect(currentBox().open({ keyId: 'test', box: row.totp_secret! }, `totp:${user.id}`)).toBe(secret);
  });

  it('seals plaintext secrets from before encryption at start, and they still log in', async () => {
    const secret = await legacyAccount('legacy@example.test');
    const result = await createTotpSecrets(ctx.database.db, currentBox()).resealAll();
    expect(result).toEqual({ resealed: 1, unreadable: 0 });
    const row = await stored('legacy@example.test');
    expect(row.totp_key_id).toBe('test');
    expect(row.totp_secret).not.toBe(secret);
    const login = await loginWith('legacy@example.test', totpCode(secret, timeStep(Date.now())));
    expect(login.status).toBe(200);
  });

  it('seals a plaintext secret on its first use', async () => {
    const secret = await legacyAccount('first-use@example.test');
    const login = await loginWith('first-use@example.test', totpCode(secret, timeStep(Date.now())));
    expect(login.status).toBe(200);
    const row = await stored('first-use@example.test');
    expect(row).toMatchObject({ totp_key_id: 'test' });
    expect(row.totp_secret).not.toBe(secret);
    expect(
      (await loginWith('first-use@example.test', totpCode(secret, timeStep(Date.now()) + 1))).status,
    ).toBe(200);
  });

  it('after a key rotation, reseals rows under the new key; the old key can then be dropped', async () => {
    const { c, user } = await signedUpClient(ctx.app, 'rotate@example.test');
    const { secret } = await enableTwoFactor(c);
    const newKey = { id: 'next', key: randomBytes(32) };
    const rotated = createSecretBox([newKey, ...ctx.config.totpKeys!]);
    const secrets = createTotpSecrets(ctx.database.db, rotated);
    expect(await secrets.resealAll()).toEqual({ resealed: 1, unreadable: 0 });
    expect(await secrets.resealAll()).toEqual({ resealed: 0, unreadable: 0 });
    const row = await stored('rotate@example.test');
    expect(row.totp_key_id).toBe('next');
    expect(createSecretBox([newKey]).open({ keyId: 'next', box: row.totp_secret! }, `totp:${user.id}`)).toBe(
      secret,
    );
    // A box that lacks the key a row names reports the row instead of failing the start.
    const lost = createTotpSecrets(ctx.database.db, createSecretBox([{ id: 'other', key: randomBytes(32) }]));
    expect(await lost.resealAll()).toEqual({ resealed: 0, unreadable: 1 });
  });

  it('a sealed secret copied onto another account does not open there', async () => {
    const { c } = await signedUpClient(ctx.app, 'victim@example.test');
    await enableTwoFactor(c);
    const other = await signedUpClient(ctx.app, 'copycat@example.test');
    await ctx.database.db.execute(
      sql`update users set (totp_secret, totp_key_id, totp_enabled_at) =
          (select totp_secret, totp_key_id, totp_enabled_at from users where email = 'victim@example.test')
          where email = 'copycat@example.test'`,
    );
    const row = await stored('copycat@example.test');
    expect(() =>
      currentBox().open({ keyId: 'test', box: row.totp_secret! }, `totp:${other.user.id}`),
    ).toThrow();
  });
});
