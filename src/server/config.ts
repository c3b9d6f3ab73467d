import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env. Every variable is validated once at start; a bad value stops the server
 * with a message naming the variable (see README "Configuration").
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_ORIGIN: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Master Your Mix <no-reply@localhost>'),
  SUPPORT_EMAIL: z.email().default('support@localhost.localdomain'),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must start with sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must start with whsec_').optional(),
  STRIPE_API_URL: z.url().optional(),
  STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().max(100).default('rl:'),
  /** Parallel uploads allowed per user, across all server processes. */
  UPLOADS_PER_USER: z.coerce.number().int().min(1).max(50).default(3),
  /** An upload slower than UPLOAD_MIN_BYTES_PER_SECOND over this window is cut off (slow-loris). */
  UPLOAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(1).default(2048),
  /** Stored objects without a track row are removed once older than this (maintenance sweep). */
  SWEEP_GRACE_SECONDS: z.coerce.number().int().min(0).default(3600),
  ADMIN_EMAILS: z.string().default(''),
  DEV_MODE: bool.default(false),
  DEV_BYPASS_SECRET: z.string().min(12, 'must be at least 12 characters').optional(),
  /** Session lifetime in seconds (default 30 days). */
  SESSION_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 24 * 3600),
  /** Login/register attempts allowed per client address in 15 minutes. */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  production: boolean;
  port: number;
  host: string;
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  stripe: { secretKey: string; webhookSecret: string | undefined; apiUrl: string | undefined } | undefined;
  storage:
    | { kind: 'disk'; root: string }
    | {
        kind: 's3';
        endpoint: string | undefined;
        bucket: string;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  storageQuotaBytes: number;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  uploads: { perUser: number; rateWindowSeconds: number; minBytesPerSecond: number };
  sweepGraceSeconds: number;
  adminEmails: string[];
  devMode: boolean;
  devBypassSecret: string | undefined;
  sessionTtlSeconds: number;
  authRateLimit: number;
  logLevel: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", so `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE === 's3' && !e.S3_BUCKET)
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
  if (e.DEV_MODE && !e.DEV_BYPASS_SECRET) {
    throw new ConfigError('Invalid configuration:\n  DEV_BYPASS_SECRET: required when DEV_MODE is on');
  }
  if (e.DEV_MODE && e.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration:\n  DEV_MODE: must not be on when NODE_ENV=production');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    production: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicOrigin: (e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    stripe: e.STRIPE_SECRET_KEY
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
      : undefined,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'disk', root: path.join(dataDir, 'files') },
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    uploads: {
      perUser: e.UPLOADS_PER_USER,
      rateWindowSeconds: e.UPLOAD_RATE_WINDOW_SECONDS,
      minBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND,
    },
    sweepGraceSeconds: e.SWEEP_GRACE_SECONDS,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    devMode: e.DEV_MODE,
    devBypassSecret: e.DEV_MODE ? e.DEV_BYPASS_SECRET : undefined,
    sessionTtlSeconds: e.SESSION_TTL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
  };
}
