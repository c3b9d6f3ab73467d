import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { timeStep, totpCode } from '../src/server/security/totp';
import {
  api,
  killAllServers,
  registerUser,
  scratchPostgres,
  startServerProcess,
  tempDir,
} from './helpers/server-processes';

/**
 * What a real start of this version does to rows an older version left (decisions 094, 095): config-granted
 * admin of an unconfirmed address is taken back, and plaintext TOTP secrets are sealed under the first key.
 */
const skip = inject('postgresSkipReason');
const key = () => randomBytes(32).toString('base64');
const EMAIL = 'boss@example.test';
const PASSWORD = 'correct horse battery';

describe.skipIf(Boolean(skip))(`identity at start${skip ? ` (skipped: ${skip})` : ''}`, () => {
  afterAll(() => killAllServers());

  it('takes back unproved ADMIN_EMAILS admin and seals plaintext TOTP secrets on start', async () => {
    const db = await scratchPostgres('identity');
    const sql = new pg.Client({ connectionString: db.url });
    try {
      const env = { DATABASE_URL: db.url, DATA_DIR: tempDir('identity'), ADMIN_EMAILS: EMAIL };
      const first = await startServerProcess('identity-1', { ...env, TOTP_ENCRYPTION_KEYS: `old:${key()}` });
      const { token } = await registerUser(first.origin, EMAIL, PASSWORD);
      const auth = { 'x-auth-token': token };
      const { secret } = (await api(first.origin, 'POST', '/api/auth/2fa/setup', undefined, auth)).body;
      const code = (offset: number) => totpCode(secret, timeStep(Date.now()) + offset);
      expect((await api(first.origin, 'POST', '/api/auth/2fa/enable', { code: code(0) }, auth)).status).toBe(
        200,
      );
      expect(await first.stop()).toBe(0);

      // As the previous version left it: admin by registration, the secret in plaintext.
      await sql.connect();
      await sql.query(
        'update users set is_admin = true, admin_granted_by = null, totp_secret = $1, totp_key_id = null',
        [secret],
      );

      const second = await startServerProcess('identity-2', {
        ...env,
        TOTP_ENCRYPTION_KEYS: `new:${key()}`,
      });
      expect(second.output()).toContain('ADMIN_EMAILS: 1 account(s) lost admin');
      expect(second.output()).toContain('TOTP secrets: 1 sealed under key new');
      const row = (await sql.query('select is_admin, totp_secret, totp_key_id from users')).rows[0];
      expect(row).toMatchObject({ is_admin: false, totp_key_id: 'new' });
      expect(row.totp_secret).not.toContain(secret);

      const login = await api(second.origin, 'POST', '/api/auth/login', {
        email: EMAIL,
        password: PASSWORD,
        otp: code(1),
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ isAdmin: false, twoFactorEnabled: true, emailVerified: false });
      expect(await second.stop()).toBe(0);
    } finally {
      await sql.end().catch(() => {});
      await db.drop();
    }
  }, 120_000);
});
