import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('runs on embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      publicOrigin: 'http://localhost:3000',
      databaseUrl: undefined,
      storage: { kind: 'disk' },
      devMode: false,
      devBypassSecret: undefined,
      sessionTtlSeconds: 2592000,
      storageQuotaBytes: 2 * 1024 ** 3,
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ STORAGE: 'ftp' }, 'STORAGE'],
    [{ STORAGE: 's3' }, 'S3_BUCKET'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ STRIPE_SECRET_KEY: 'pk_live_x' }, 'STRIPE_SECRET_KEY'],
    [{ DEV_MODE: 'true' }, 'DEV_BYPASS_SECRET'],
    [{ DEV_MODE: 'maybe' }, 'DEV_MODE'],
    [{ DEV_MODE: 'true', DEV_BYPASS_SECRET: 'long-enough-secret', NODE_ENV: 'production' }, 'DEV_MODE'],
    [{ SESSION_TTL: '5' }, 'SESSION_TTL'],
    [{ SUPPORT_EMAIL: 'nobody' }, 'SUPPORT_EMAIL'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${variable}\\b`));
  });

  it('treats empty values as unset and parses lists', () => {
    const c = loadConfig({ DATABASE_URL: '', ADMIN_EMAILS: ' Boss@X.test, ,second@x.test ' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.adminEmails).toEqual(['boss@x.test', 'second@x.test']);
  });

  it('keeps the bypass secret only in developer mode', () => {
    expect(loadConfig({ DEV_BYPASS_SECRET: 'long-enough-secret' }).devBypassSecret).toBeUndefined();
    expect(loadConfig({ DEV_MODE: 'true', DEV_BYPASS_SECRET: 'long-enough-secret' }).devBypassSecret).toBe(
      'long-enough-secret',
    );
  });
});
