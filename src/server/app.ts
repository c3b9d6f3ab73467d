import { randomBytes, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { devBypassBody, type PublicConfig } from '../shared/api/config';
import { MESSAGES } from '../shared/messages';
import type { Config } from './config';
import type { Database } from './db/client';
import { notFound } from './errors';
import { sessionTokenOf } from './http/auth-context';
import { registerCsrfGuard } from './http/csrf';
import { deviceCookies } from './http/device-cookie';
import { registerErrorHandler } from './http/error-handler';
import { registerHealthRoutes } from './http/health';
import { loggerOptions } from './http/logging';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSpa } from './http/spa';
import { fastifyTrustProxy } from './http/trust-proxy';
import {
  memoryUploadSlots,
  registerUploadGuards,
  SERVER_TIMEOUTS,
  type UploadGuards,
  type UploadSlots,
} from './http/upload-guards';
import { parse } from './http/validate';
import { createMailBudget } from './mail/address-budget';
import { createMailQueue } from './mail/mail-queue';
import type { Mailer } from './mail/mailer';
import { registerMetrics } from './metrics/metrics-routes';
import { adminRoutes } from './modules/admin/admin-routes';
import { accountSessionsRoutes } from './modules/auth/account-sessions-routes';
import { authRoutes } from './modules/auth/auth-routes';
import { createAuthService } from './modules/auth/auth-service';
import { createEmailChange } from './modules/auth/email-change';
import { createEmailVerification } from './modules/auth/email-verification';
import { emailVerificationRoutes } from './modules/auth/email-verification-routes';
import { createSessionService, type SessionService } from './modules/auth/session-service';
import { createTotpSecrets } from './modules/auth/totp-secrets';
import { twoFactorRoutes } from './modules/auth/two-factor-routes';
import { createTwoFactorService } from './modules/auth/two-factor-service';
import type { UserRow } from './modules/auth/user-view';
import { registerBillingModule } from './modules/billing/billing-module';
import { clientErrorRoutes } from './modules/client-errors/client-errors-routes';
import { contactRoutes } from './modules/contact/contact-routes';
import { registerLibraryModule } from './modules/library/library-module';
import { registerTracksModule } from './modules/tracks/tracks-module';
import { registerApiDocs } from './openapi/api-docs';
import type { RateLimiter } from './rate-limit/limiter';
import type { PasswordHasher } from './security/passwords';
import type { SecretBox } from './security/secret-box';
import { totpBoxFor } from './security/totp-keys';

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
  /** Run after a user's email address changed (the payment provider's customer follows it). */
  emailChanged: Array<(userId: number, email: string) => Promise<void>>;
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** The transport (SMTP or the outbox folder); the app queues every mail in the database in front of it. */
  mailer: Mailer;
  limiter: RateLimiter;
  hasher: PasswordHasher;
  /** Seals TOTP secrets; built from the configuration (or DATA_DIR's key file) when not given. */
  totpBox?: SecretBox;
  /** Tests: each mail is delivered before the request that asked for it answers (see mail-queue.ts). */
  deliverMailBeforeReply?: boolean;
  /** Built React app (dist/web); undefined in API-only tests. */
  webRoot?: string;
  /** Parallel-upload slots (Redis when configured, so every process counts the same uploads). */
  uploadSlots?: UploadSlots;
  /** When REDIS_URL is configured: reported on its own by GET /api/health. */
  redis?: { ping(): Promise<unknown> };
  /** Key of the signed device cookie (services.ts); unset in tests: a random key for this app only. */
  deviceCookieKey?: Buffer;
  /** Pino options; tests pass false to keep output quiet. */
  logger?: boolean | object;
}

/** Builds the whole server: external plugins, then app services, then routes, in that order. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, limiter, hasher } = deps;
  const db = database.db;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel),
    // Only the configured proxies may name the client (TRUST_PROXY); by default nobody can.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    ...SERVER_TIMEOUTS,
    // Our own 503 below, in the API's error format (Fastify's has another shape).
    return503OnClosing: false,
  });

  // --- graceful stop (main.ts): drain, then close -----------------------------------------------------
  // Draining: everything is served as usual but the health probes answer 503, so the load balancer takes
  // this instance out while no request is refused. Closing: a request still arriving on a kept-alive
  // connection gets a 503 the client may retry, and the connection is closed.
  let draining = false;
  let closing = false;
  app.decorate('drain', () => {
    draining = true;
  });
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply
      .code(503)
      .header('connection', 'close')
      .send({ message: MESSAGES.serviceUnavailable, code: 'unavailable' });
  });

  // --- observability: first, so their onRoute hooks see every route ---------------------------------
  registerApiDocs(app, { publicOrigin: config.publicOrigin });
  registerMetrics(app, { token: config.metricsToken });

  // --- parsing and headers ---------------------------------------------------------------------------
  app.removeContentTypeParser('text/plain');
  registerSecurityHeaders(app, { production: config.production });

  // --- app services ----------------------------------------------------------------------------------
  // Every mail goes through the queue: requests only write a row; the worker sends it (and retries).
  const mailer = createMailQueue({
    db,
    transport: deps.mailer,
    log: { warn: (m) => app.log.warn(m), error: (m) => app.log.error(m) },
    deliverBeforeReturn: deps.deliverMailBeforeReply,
  });
  app.addHook('onReady', async () => mailer.start());
  app.addHook('onClose', () => mailer.stop());
  app.metrics?.setMailQueueDepthSource(() => mailer.depth());
  const sessions = createSessionService(database, config.sessionTtlSeconds);
  const accountCleanups: Array<(user: UserRow) => Promise<void>> = [];
  const emailChanged: AppContext['emailChanged'] = [];
  const twoFactor = createTwoFactorService(db, createTotpSecrets(db, deps.totpBox ?? totpBoxFor(config)));
  const budget = createMailBudget(db);
  const verification = createEmailVerification({
    db,
    mailer,
    budget,
    sessions,
    publicOrigin: config.publicOrigin,
    adminEmails: config.adminEmails,
    supportEmail: config.supportEmail,
    log: { warn: (m) => app.log.warn(m) },
    emailChanged,
  });
  const emailChange = createEmailChange({ db, hasher, verification });
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
    sessions.resolve(token, req.ip).then((user) => {
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
  app.get(
    '/api/config',
    async (): Promise<PublicConfig> => ({
      devMode: config.devMode,
      paymentProvider: config.stripe ? 'stripe' : 'local',
      demoPayments: config.demoPayments,
      maxUploadBytes: MAX_UPLOAD_BYTES,
    }),
  );

  // The developer bypass only unlocks screens in the browser; the API never trusts it.
  app.post('/api/dev/bypass', async (req) => {
    const { secret } = parse(devBypassBody, req.body);
    const expected = config.devBypassSecret;
    if (!config.devMode || !expected) throw notFound();
    const a = Buffer.from(secret);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw notFound();
    return { ok: true };
  });

  const appContext: AppContext = {
    config,
    database,
    db,
    mailer,
    limiter,
    sessions,
    accountCleanups,
    emailChanged,
  };
  // Feature modules register here, each with its own routes and services.
  void appContext;
  const tracksModule = await registerTracksModule(app, appContext);
  await registerBillingModule(app, appContext);
  await registerLibraryModule(app, appContext, tracksModule.storage);
  const redis = deps.redis;
  registerHealthRoutes(app, {
    database: { kind: database.kind, check: () => database.ping() },
    storage: { kind: tracksModule.storage.kind, check: () => tracksModule.storage.check() },
    redis: redis ? { check: () => redis.ping() } : undefined,
    draining: () => draining,
    log: (what, err) => app.log.error({ err }, what),
  });

  await authRoutes(app, {
    auth,
    verification,
    sessions,
    limiter,
    budget,
    devices: deviceCookies(deps.deviceCookieKey ?? randomBytes(32), config.production),
    authRateLimit: config.authRateLimit,
    secureCookies: config.production,
  });
  await twoFactorRoutes(app, { twoFactor, sessions, limiter });
  await emailVerificationRoutes(app, { verification, emailChange, limiter });
  await accountSessionsRoutes(app, { sessions, secureCookies: config.production });
  await contactRoutes(app, { db, mailer, limiter, supportEmail: config.supportEmail });
  await adminRoutes(app, { db });
  await clientErrorRoutes(app, { limiter, perTenMinutes: config.clientErrorRateLimit });

  await registerSpa(app, deps.webRoot, { serveSourceMaps: !config.production });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** In-flight upload bodies, for graceful shutdown (main.ts). */
    uploadGuards: UploadGuards;
    /** First step of a graceful stop: the health probes answer 503 from now on; requests are still served. */
    drain(): void;
  }
}
