import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PublicConfig } from '../shared/api/config';
import type { Config } from './config';
import type { Database } from './db/client';
import { notFound } from './errors';
import { sessionTokenOf } from './http/auth-context';
import { registerCsrfGuard } from './http/csrf';
import { registerErrorHandler } from './http/error-handler';
import { loggerOptions } from './http/logging';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSpa } from './http/spa';
import {
  memoryUploadSlots,
  registerUploadGuards,
  SERVER_TIMEOUTS,
  type UploadGuards,
  type UploadSlots,
} from './http/upload-guards';
import { parse } from './http/validate';
import type { Mailer } from './mail/mailer';
import { adminRoutes } from './modules/admin/admin-routes';
import { authRoutes } from './modules/auth/auth-routes';
import { createAuthService } from './modules/auth/auth-service';
import { createSessionService, type SessionService } from './modules/auth/session-service';
import { twoFactorRoutes } from './modules/auth/two-factor-routes';
import { createTwoFactorService } from './modules/auth/two-factor-service';
import type { UserRow } from './modules/auth/user-view';
import { registerBillingModule } from './modules/billing/billing-module';
import { contactRoutes } from './modules/contact/contact-routes';
import { registerTracksModule } from './modules/tracks/tracks-module';
import type { RateLimiter } from './rate-limit/limiter';
import type { PasswordHasher } from './security/passwords';

export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** What every server module receives: the shared services, built once per app. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Database['db'];
  mailer: Mailer;
  limiter: RateLimiter;
  sessions: SessionService;
  /** Run, in order, before a user row is deleted (cancel the subscription, delete stored files, ...). */
  accountCleanups: Array<(user: UserRow) => Promise<void>>;
}

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  limiter: RateLimiter;
  hasher: PasswordHasher;
  /** Built React app (dist/web); undefined in API-only tests. */
  webRoot?: string;
  /** Parallel-upload slots (Redis when configured, so every process counts the same uploads). */
  uploadSlots?: UploadSlots;
  /** Pino options; tests pass false to keep output quiet. */
  logger?: boolean | object;
}

/** Builds the whole server: external plugins, then app services, then routes, in that order. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, mailer, limiter, hasher } = deps;
  const db = database.db;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    trustProxy: config.production,
    bodyLimit: 1024 * 1024,
    ...SERVER_TIMEOUTS,
  });

  // --- parsing and headers ---------------------------------------------------------------------------
  app.removeContentTypeParser('text/plain');
  registerSecurityHeaders(app, { production: config.production });

  // --- app services ----------------------------------------------------------------------------------
  const sessions = createSessionService(database, config.sessionTtlSeconds);
  const accountCleanups: Array<(user: UserRow) => Promise<void>> = [];
  const twoFactor = createTwoFactorService(db);
  const auth = createAuthService({
    twoFactor,
    db,
    hasher,
    sessions,
    mailer,
    publicOrigin: config.publicOrigin,
    adminEmails: config.adminEmails,
    accountCleanups,
  });

  registerErrorHandler(app);
  registerCsrfGuard(app, config.publicOrigin);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  // A plain callback hook, like the other per-request hooks (decision 082).
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.url.startsWith('/api/')) return done();
    const token = sessionTokenOf(req);
    req.sessionToken = token;
    if (!token) return done();
    sessions.resolve(token).then((user) => {
      req.user = user;
      done();
    }, done);
  });
  const uploadGuards = registerUploadGuards(app, {
    slots: deps.uploadSlots ?? memoryUploadSlots(),
    perUser: config.uploads.perUser,
    rateWindowSeconds: config.uploads.rateWindowSeconds,
    minBytesPerSecond: config.uploads.minBytesPerSecond,
    log: (msg) => app.log.warn(msg),
  });
  app.decorate('uploadGuards', uploadGuards);

  // --- routes ----------------------------------------------------------------------------------------
  app.get('/api/health', async (_req, reply) => {
    try {
      await database.ping();
      if (!(await tracksModule.storageHealthy()))
        return reply.code(503).send({ ok: false, message: 'Storage unavailable' });
      return { ok: true, database: database.kind, storage: 'ok' };
    } catch {
      return reply.code(503).send({ ok: false, message: 'Database unavailable' });
    }
  });

  app.get(
    '/api/config',
    async (): Promise<PublicConfig> => ({
      devMode: config.devMode,
      paymentProvider: config.stripe ? 'stripe' : 'local',
      maxUploadBytes: MAX_UPLOAD_BYTES,
    }),
  );

  // The developer bypass only unlocks screens in the browser; the API never trusts it.
  app.post('/api/dev/bypass', async (req) => {
    const { secret } = parse(z.object({ secret: z.string().max(200) }), req.body);
    const expected = config.devBypassSecret;
    if (!config.devMode || !expected) throw notFound();
    const a = Buffer.from(secret);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw notFound();
    return { ok: true };
  });

  const appContext: AppContext = { config, database, db, mailer, limiter, sessions, accountCleanups };
  // Feature modules register here, each with its own routes and services.
  void appContext;
  const tracksModule = await registerTracksModule(app, appContext);
  await registerBillingModule(app, appContext);

  await authRoutes(app, {
    auth,
    sessions,
    limiter,
    authRateLimit: config.authRateLimit,
    secureCookies: config.production,
  });
  await twoFactorRoutes(app, { twoFactor, limiter });
  await contactRoutes(app, { db, mailer, limiter, supportEmail: config.supportEmail });
  await adminRoutes(app, { db });

  await registerSpa(app, deps.webRoot);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** In-flight upload bodies, for graceful shutdown (main.ts). */
    uploadGuards: UploadGuards;
  }
}
