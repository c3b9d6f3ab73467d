import path from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { deviceCookieKey } from './http/device-cookie';
import { memoryUploadSlots, redisUploadSlots, type UploadSlots } from './http/upload-guards';
import { type Mailer, outboxMailer, smtpMailer } from './mail/mailer';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './rate-limit/limiter';

export interface ExternalServices {
  database: Database;
  mailer: Mailer;
  limiter: RateLimiter;
  uploadSlots: UploadSlots;
  redis: Redis | undefined;
  deviceCookieKey: Buffer;
  close(): Promise<void>;
}

/** Opens what the configuration names: PostgreSQL or PGlite, SMTP or the outbox, Redis or memory. */
export async function openServices(config: Config, log: (line: string) => void): Promise<ExternalServices> {
  const database = await openDatabase(config);
  const mailer = config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : outboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, log);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => log(`redis: ${err.message}`));
  const limiter = redis ? redisRateLimiter(redis, config.redisKeyPrefix) : memoryRateLimiter();
  const uploadSlots = redis ? redisUploadSlots(redis, config.redisKeyPrefix) : memoryUploadSlots();
  return {
    database,
    mailer,
    limiter,
    uploadSlots,
    redis,
    deviceCookieKey: deviceCookieKey(config.deviceCookieSecret, config.dataDir),
    async close() {
      mailer.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
