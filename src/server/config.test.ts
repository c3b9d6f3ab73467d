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
    [{ NODE_ENV: 'production' }, 'TOTP_ENCRYPTION_KEYS'],
    [{ TOTP_ENCRYPTION_KEYS: 'c2hvcnQ=' }, 'TOTP_ENCRYPTION_KEYS'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/40' }, 'TRUST_PROXY'],
    [{ DEVICE_COOKIE_SECRET: 'short' }, 'DEVICE_COOKIE_SECRET'],
    [{ SHUTDOWN_DRAIN_SECONDS: '-1' }, 'SHUTDOWN_DRAIN_SECONDS'],
    [{ SHUTDOWN_DRAIN_SECONDS: 'soon' }, 'SHUTDOWN_DRAIN_SECONDS'],
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

  describe('in production', () => {
    const safe = {
      NODE_ENV: 'production',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SMTP_URL: 'smtps://u:p@smtp.example.com:465',
      TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 7).toString('base64'),
    };

    it('refuses to start on test stand-ins, naming every missing variable in one message', () => {
      let message = '';
      try {
        loadConfig({ NODE_ENV: 'production' });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(/STRIPE_SECRET_KEY: required when NODE_ENV=production .*PAYMENTS=local/);
      expect(message).toMatch(/STRIPE_WEBHOOK_SECRET: required when NODE_ENV=production/);
      expect(message).toMatch(/SMTP_URL: required when NODE_ENV=production .*MAIL=outbox/);
      expect(message).toMatch(/TOTP_ENCRYPTION_KEYS: required when NODE_ENV=production/);
    });

    it.each(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL', 'TOTP_ENCRYPTION_KEYS'])(
      'refuses a missing %s',
      (variable) => {
        const env: Record<string, string> = { ...safe };
        delete env[variable];
        expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${variable}: required`));
      },
    );

    it('starts with every real service configured, without warnings', () => {
      const c = loadConfig(safe);
      expect(c.stripe?.secretKey).toBe('sk_live_x');
      expect(c.demoPayments).toBe(false);
      expect(c.warnings).toEqual([]);
    });

    it('runs the test stand-ins only on an explicit opt-in, with a warning for each', () => {
      const c = loadConfig({
        NODE_ENV: 'production',
        PAYMENTS: 'local',
        MAIL: 'outbox',
        TOTP_ENCRYPTION_KEYS: safe.TOTP_ENCRYPTION_KEYS,
      });
      expect(c.stripe).toBeUndefined();
      expect(c.smtpUrl).toBeUndefined();
      expect(c.demoPayments).toBe(true);
      expect(c.warnings).toEqual([
        expect.stringContaining('PAYMENTS=local'),
        expect.stringContaining('MAIL=outbox'),
      ]);
    });

    it('refuses contradicting choices', () => {
      expect(() => loadConfig({ ...safe, PAYMENTS: 'local' })).toThrow(
        /PAYMENTS: is local, but STRIPE_SECRET_KEY/,
      );
      expect(() => loadConfig({ ...safe, MAIL: 'outbox' })).toThrow(/MAIL: is outbox, but SMTP_URL/);
      expect(() => loadConfig({ PAYMENTS: 'stripe' })).toThrow(
        /STRIPE_SECRET_KEY: required when PAYMENTS=stripe/,
      );
    });

    it('changes nothing outside production', () => {
      const c = loadConfig({ NODE_ENV: 'test' });
      expect(c.stripe).toBeUndefined();
      expect(c.demoPayments).toBe(false);
      expect(c.warnings).toEqual([]);
    });
  });

  it('reads the TOTP keys, the first one sealing', () => {
    const key = (n: number) => Buffer.alloc(32, n).toString('base64');
    const c = loadConfig({ NODE_ENV: 'test', TOTP_ENCRYPTION_KEYS: `new:${key(2)},old:${key(1)}` });
    expect(c.totpKeys?.map((k) => k.id)).toEqual(['new', 'old']);
    expect(loadConfig({}).totpKeys).toBeUndefined();
  });

  it('drains 5 s before stopping in production, not at all elsewhere, unless told', () => {
    const production = {
      NODE_ENV: 'production',
      PAYMENTS: 'local',
      MAIL: 'outbox',
      TOTP_ENCRYPTION_KEYS: Buffer.alloc(32, 1).toString('base64'),
    };
    expect(loadConfig(production).shutdownDrainSeconds).toBe(5);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({}).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '12' }).shutdownDrainSeconds).toBe(12);
  });
});
