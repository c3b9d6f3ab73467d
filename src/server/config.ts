import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy';
import { parseKeyList, type SecretKey } from './security/secret-box';

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
  /** `local` runs the built-in test provider (card 4242 grants plans for free): in production only on purpose. */
  PAYMENTS: z.enum(['stripe', 'local']).optional(),
  /** `outbox` writes mails to DATA_DIR/outbox instead of sending them: in production only on purpose. */
  MAIL: z.enum(['smtp', 'outbox']).optional(),
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
  /** The local payment provider's outbox: how often undelivered events are delivered again (after start-up's). */
  LOCAL_OUTBOX_SWEEP_SECONDS: z.coerce.number().int().min(1).default(30),
  ADMIN_EMAILS: z.string().default(''),
  /** Keys sealing TOTP secrets at rest: `[id:]base64,...`, the first seals, all open (README "Production"). */
  TOTP_ENCRYPTION_KEYS: z.string().optional(),
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
  /** Which peers may set X-Forwarded-For: a hop count or a list of addresses/CIDRs (default: none). */
  TRUST_PROXY: z.string().optional(),
  /** Key of the signed device cookie (at least 32 characters); unset: a key kept in DATA_DIR. */
  DEVICE_COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Browser error reports (POST /api/client-errors) accepted per client address in 10 minutes. */
  CLIENT_ERROR_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** Bearer token of GET /metrics; unset: no metrics are kept and /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * On SIGTERM, seconds of serving on while liveness answers 503, so a load balancer takes the instance out
   * before it closes (default 5 in production, else 0).
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).optional(),
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
  /** Production running on a test stand-in by the operator's choice (PAYMENTS=local): the browser says so. */
  demoPayments: boolean;
  /** Opt-ins that make a production server unsafe for real customers; logged as warnings at start. */
  warnings: string[];
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
  localOutboxSweepSeconds: number;
  adminEmails: string[];
  /** Unset outside production: a key file in DATA_DIR stands in (security/totp-keys.ts). */
  totpKeys: SecretKey[] | undefined;
  devMode: boolean;
  devBypassSecret: string | undefined;
  sessionTtlSeconds: number;
  authRateLimit: number;
  trustProxy: TrustProxy;
  deviceCookieSecret: string | undefined;
  logLevel: string;
  metricsToken: string | undefined;
  clientErrorRateLimit: number;
  shutdownDrainSeconds: number;
}

export class ConfigError extends Error {}

type ParsedEnv = z.output<typeof envSchema>;

/**
 * Settings a production server must not start with, one line per variable. Without these checks a missing
 * Stripe key silently ran the local test provider (card 4242 grants paid plans for free) and a missing
 * SMTP_URL silently wrote reset mails to a folder. Each safe fallback needs an explicit opt-in.
 */
export function productionProblems(e: ParsedEnv): string[] {
  if (e.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (e.DEV_MODE) problems.push('DEV_MODE: must not be on when NODE_ENV=production');
  if (e.PAYMENTS !== 'local') {
    const optIn = e.PAYMENTS ? '' : ' (or PAYMENTS=local to run the test provider on a demo site)';
    if (!e.STRIPE_SECRET_KEY) problems.push(`STRIPE_SECRET_KEY: required when NODE_ENV=production${optIn}`);
    if (!e.STRIPE_WEBHOOK_SECRET)
      problems.push(`STRIPE_WEBHOOK_SECRET: required when NODE_ENV=production${optIn}`);
  }
  if (e.MAIL !== 'outbox' && !e.SMTP_URL) {
    const optIn = e.MAIL ? '' : ' (or MAIL=outbox to write mails to DATA_DIR/outbox)';
    problems.push(`SMTP_URL: required when NODE_ENV=production${optIn}`);
  }
  // A key file next to the database would be backed up and leaked with it: production names its keys.
  if (!e.TOTP_ENCRYPTION_KEYS)
    problems.push('TOTP_ENCRYPTION_KEYS: required when NODE_ENV=production (openssl rand -base64 32)');
  return problems;
}

/** Choices that contradict each other, in any environment. */
function conflicts(e: ParsedEnv): string[] {
  const problems: string[] = [];
  if (e.STORAGE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: required when STORAGE=s3');
  if (e.DEV_MODE && !e.DEV_BYPASS_SECRET) problems.push('DEV_BYPASS_SECRET: required when DEV_MODE is on');
  if (e.PAYMENTS === 'local' && e.STRIPE_SECRET_KEY)
    problems.push('PAYMENTS: is local, but STRIPE_SECRET_KEY is set (unset one of them)');
  if (e.PAYMENTS === 'stripe' && !e.STRIPE_SECRET_KEY)
    problems.push('STRIPE_SECRET_KEY: required when PAYMENTS=stripe');
  if (e.MAIL === 'outbox' && e.SMTP_URL)
    problems.push('MAIL: is outbox, but SMTP_URL is set (unset one of them)');
  if (e.MAIL === 'smtp' && !e.SMTP_URL) problems.push('SMTP_URL: required when MAIL=smtp');
  return problems;
}

/** What an operator who opted into a test stand-in in production must be reminded of at every start. */
function productionWarnings(e: ParsedEnv): string[] {
  if (e.NODE_ENV !== 'production') return [];
  const warnings: string[] = [];
  if (e.PAYMENTS === 'local')
    warnings.push(
      'PAYMENTS=local: payments use the built-in test provider; test cards unlock paid plans and no real card is charged',
    );
  if (e.MAIL === 'outbox')
    warnings.push(
      'MAIL=outbox: mails (password resets, contact messages) are written to DATA_DIR/outbox, not sent',
    );
  return warnings;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", so `FOO= npm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Every problem at once, so an operator fixes the environment in one go.
  const problems = [...conflicts(e), ...productionProblems(e)];
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  let totpKeys: SecretKey[] | undefined;
  try {
    totpKeys = e.TOTP_ENCRYPTION_KEYS === undefined ? undefined : parseKeyList(e.TOTP_ENCRYPTION_KEYS);
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  TOTP_ENCRYPTION_KEYS: ${(err as Error).message}`);
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy instanceof Error)
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${trustProxy.message}`);
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
    demoPayments: e.NODE_ENV === 'production' && e.PAYMENTS === 'local',
    warnings: productionWarnings(e),
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
    localOutboxSweepSeconds: e.LOCAL_OUTBOX_SWEEP_SECONDS,
    adminEmails: e.ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    totpKeys,
    devMode: e.DEV_MODE,
    devBypassSecret: e.DEV_MODE ? e.DEV_BYPASS_SECRET : undefined,
    sessionTtlSeconds: e.SESSION_TTL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    trustProxy,
    deviceCookieSecret: e.DEVICE_COOKIE_SECRET,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    clientErrorRateLimit: e.CLIENT_ERROR_RATE_LIMIT,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 5 : 0),
  };
}
