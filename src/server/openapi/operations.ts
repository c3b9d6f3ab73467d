import { z } from 'zod';
import { adminStats } from '../../shared/api/admin';
import {
  accountSessionParam,
  accountSessionsResponse,
  changeEmailBody,
  forgotPasswordBody,
  loginBody,
  logoutBody,
  registerBody,
  resetPasswordBody,
  twoFactorCodeBody,
  twoFactorDisableBody,
  twoFactorEnableResponse,
  twoFactorSetupResponse,
  verifyEmailBody,
} from '../../shared/api/auth';
import {
  advanceCycleBody,
  changeSubscriptionBody,
  checkoutSessionBody,
  checkoutSessionResponse,
  paymentMethodsResponse,
  purchaseCrownsBody,
  purchaseCrownsResponse,
  spendAlbumBody,
  spendAlbumResponse,
  spendCreditBody,
  spendCreditResponse,
} from '../../shared/api/billing';
import { clientErrorReport } from '../../shared/api/client-errors';
import { devBypassBody, publicConfig } from '../../shared/api/config';
import { contactBody } from '../../shared/api/contact';
import {
  keepMasterFields,
  libraryItemParams,
  libraryList,
  libraryQuery,
  masterFileParams,
  renameBody,
} from '../../shared/api/library';
import { listSessionsQuery, sessionBody, sessionIdParam, sessionView } from '../../shared/api/sessions';
import { listTracksQuery, trackIdParam, trackView, uploadTrackFields } from '../../shared/api/tracks';
import { loginResponse, messageResponse, publicUser } from '../../shared/api/user';
import { deleteAccountBody } from '../modules/auth/auth-routes';

/**
 * The catalogue of the HTTP API that GET /api/openapi.json publishes. Bodies, queries and answers are the
 * shared zod schemas the routes parse with, so the document cannot drift from what the server accepts;
 * `openapi.test.ts` checks that every registered route is listed here and that every example validates.
 */
export type Method = 'get' | 'post' | 'put' | 'delete';
/** Who may call: anyone, a signed-in user, an admin, the metrics scraper, or the payment provider (signed body). */
export type Access = 'public' | 'user' | 'admin' | 'metrics' | 'signature';

export interface Operation {
  method: Method;
  /** Fastify's form (`/api/tracks/:id`); the document writes `{id}`. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** How the body travels when it is not JSON. */
  bodyType?: 'multipart/form-data' | 'application/x-www-form-urlencoded' | 'application/octet-stream';
  /** Success status and its JSON body (none for 204 and non-JSON answers). */
  status: number;
  response?: z.ZodType;
  /** Non-JSON success answers (audio bytes, HTML pages, Prometheus text). */
  responseType?: string;
  example?: { request?: unknown; response?: unknown };
  /** Error statuses worth naming besides 400 (validation) and 401/403 (access). */
  errors?: number[];
}

const EXAMPLE_USER: z.input<typeof publicUser> = {
  id: 7,
  email: 'ada@example.com',
  username: 'ada',
  hasSubscription: true,
  subscriptionType: 'pro',
  mixCredits: 4,
  masteringCredits: 9,
  crowns: 20,
  isAdmin: false,
  createdAt: '2026-01-05T10:00:00.000Z',
  emailVerified: true,
  twoFactorEnabled: false,
};

const EXAMPLE_TRACK: z.input<typeof trackView> = {
  id: 12,
  name: 'Lead vocal',
  type: 'vocals',
  audioUrl: '/api/tracks/12/audio',
  arrangement: null,
  contentType: 'audio/wav',
  size: 10584044,
  duration: 0,
  createdAt: '2026-01-05T10:02:00.000Z',
};

const EXAMPLE_SESSION: z.input<typeof sessionBody> = {
  name: 'Chorus take 3',
  vocalTrackId: 12,
  instrumentalTrackId: 13,
  vocalDuration: 180,
  instrumentalDuration: 182.5,
  clips: {
    vocals: [{ id: 'v1', trackType: 'vocals', startTime: 0, endTime: 30, position: 4, selected: false }],
    instrumental: [],
  },
  style: 'balanced',
  outputVolume: 80,
  genre: 'hiphop',
};

const trackList = z.object({
  tracks: z.array(trackView),
  nextCursor: z.number().int().nullable(),
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
});
const sessionList = z.object({
  sessions: z.array(
    sessionView.pick({
      id: true,
      name: true,
      vocalTrackId: true,
      instrumentalTrackId: true,
      style: true,
      createdAt: true,
      updatedAt: true,
    }),
  ),
  nextCursor: z.number().int().nullable(),
});
const dependency = z.object({ status: z.enum(['ok', 'down']) });
const health = z.object({
  ok: z.literal(true),
  database: dependency.extend({ kind: z.enum(['pglite', 'postgres']) }),
  storage: dependency.extend({ kind: z.enum(['disk', 's3']) }),
  redis: dependency.optional(),
});
const webhookAck = z.object({
  received: z.literal(true),
  ignored: z.boolean().optional(),
  duplicate: z.boolean().optional(),
});
const idParam = z.object({ id: z.string().max(100) });

export const OPERATIONS: Operation[] = [
  // --- service ---------------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/health',
    tag: 'service',
    summary:
      'Readiness: database, storage and Redis (when configured) each reported (503 naming what is down, or code shutting_down while draining before a stop)',
    access: 'public',
    status: 200,
    response: health,
    example: {
      response: {
        ok: true,
        database: { status: 'ok', kind: 'postgres' },
        storage: { status: 'ok', kind: 's3' },
        redis: { status: 'ok' },
      },
    },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'service',
    summary:
      'Liveness: the process answers; checks nothing else (503 with code shutting_down while draining before a stop)',
    access: 'public',
    status: 200,
    response: z.object({ ok: z.literal(true) }),
    example: { response: { ok: true } },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/config',
    tag: 'service',
    summary: 'The whitelisted configuration the browser may see',
    access: 'public',
    status: 200,
    response: publicConfig,
    example: {
      response: { devMode: false, paymentProvider: 'stripe', demoPayments: false, maxUploadBytes: 104857600 },
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'service',
    summary: 'This document',
    access: 'public',
    status: 200,
    responseType: 'application/json',
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'service',
    summary: 'Prometheus metrics (`Authorization: Bearer METRICS_TOKEN`; 404 when no token is configured)',
    access: 'metrics',
    status: 200,
    responseType: 'text/plain',
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/api/dev/bypass',
    tag: 'service',
    summary: 'Checks the developer-bypass secret (404 unless developer mode is on)',
    access: 'public',
    body: devBypassBody,
    status: 200,
    response: z.object({ ok: z.literal(true) }),
    example: { request: { secret: 'the-configured-secret' }, response: { ok: true } },
    errors: [404],
  },
  // --- auth (spec 7) ---------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/auth/user',
    tag: 'auth',
    summary: 'The signed-in user (401 means nobody is signed in)',
    access: 'user',
    status: 200,
    response: publicUser,
    example: { response: EXAMPLE_USER },
  },
  {
    method: 'post',
    path: '/api/auth/login',
    tag: 'auth',
    summary: 'Sign in; sets the session cookie and returns authToken for the x-auth-token header',
    access: 'public',
    body: loginBody,
    status: 200,
    response: loginResponse,
    example: {
      request: { email: 'ada@example.com', password: 'correct horse battery' },
      response: { ...EXAMPLE_USER, authToken: 'p3Yq0c6m1J2uR8sKxv4TzA' },
    },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/register',
    tag: 'auth',
    summary: 'Create an account and sign in',
    access: 'public',
    body: registerBody,
    status: 201,
    response: loginResponse,
    example: {
      request: { email: 'ada@example.com', username: 'ada', password: 'correct horse battery' },
      response: { ...EXAMPLE_USER, authToken: 'p3Yq0c6m1J2uR8sKxv4TzA' },
    },
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    tag: 'auth',
    summary: 'Sign out: this session, or with {all: true} every session of the account',
    access: 'public',
    body: logoutBody,
    status: 200,
    response: messageResponse,
    example: { request: { all: true }, response: { message: 'You have been signed out on every device.' } },
  },
  {
    method: 'get',
    path: '/api/auth/sessions',
    tag: 'auth',
    summary: "The account's live sessions (device, address last seen from, last use; the current one marked)",
    access: 'user',
    status: 200,
    response: accountSessionsResponse,
    example: {
      response: {
        sessions: [
          {
            id: '3b2f8e0a-6c1d-4f6e-9a57-2d4c8b1e7f90',
            device: 'Chrome on Windows',
            address: '203.0.113.7',
            createdAt: '2026-11-20T08:00:00.000Z',
            lastSeenAt: '2026-11-26T09:30:00.000Z',
            current: true,
          },
        ],
        limit: 10,
      },
    },
  },
  {
    method: 'delete',
    path: '/api/auth/sessions/:id',
    tag: 'auth',
    summary: 'Sign one session of the account out (the current one too, which also clears its cookie)',
    access: 'user',
    params: accountSessionParam,
    status: 200,
    response: messageResponse,
    example: { response: { message: 'That session is signed out.' } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/auth/email-change',
    tag: 'auth',
    summary:
      'Ask to move the account to a new address (current password required): a link goes to the new address, the change is made when it is opened signed in, and the old address is told',
    access: 'user',
    body: changeEmailBody,
    status: 200,
    response: messageResponse,
    example: { request: { newEmail: 'ada@studio.example', password: 'correct horse battery' } },
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/auth/forgot-password',
    tag: 'auth',
    summary: 'Mail a password-reset link (same answer whether or not the account exists)',
    access: 'public',
    body: forgotPasswordBody,
    status: 200,
    response: messageResponse,
    example: { request: { email: 'ada@example.com' } },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/verify-email/send',
    tag: 'auth',
    summary:
      "Mail a new confirmation link to the signed-in account's address (within the address's mail limits)",
    access: 'user',
    status: 200,
    response: messageResponse,
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/verify-email',
    tag: 'auth',
    summary:
      "Confirm the signed-in account's address with the mailed token (ADMIN_EMAILS applies from then on)",
    access: 'user',
    body: verifyEmailBody,
    status: 200,
    response: messageResponse,
    example: { request: { token: 'k3J9x0Qe5tLr2mWv8bYc1nZa4sPd7uHf6gTi0oEy' } },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/reset-password',
    tag: 'auth',
    summary: 'Set a new password with the mailed token (signs out every session)',
    access: 'public',
    body: resetPasswordBody,
    status: 200,
    response: messageResponse,
    example: { request: { token: 'd1f0c2b7a9e84c3f', newPassword: 'a new long passphrase' } },
    errors: [429],
  },
  {
    method: 'delete',
    path: '/api/auth/account',
    tag: 'auth',
    summary: 'Delete the account and all its data (the email typed again confirms)',
    access: 'user',
    body: deleteAccountBody,
    status: 200,
    response: messageResponse,
    example: { request: { confirm: 'ada@example.com' } },
  },
  {
    method: 'post',
    path: '/api/auth/2fa/setup',
    tag: 'auth',
    summary: 'Start two-factor set-up: a new TOTP secret',
    access: 'user',
    status: 200,
    response: twoFactorSetupResponse,
    example: {
      response: {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Master%20Your%20Mix:ada%40example.com?secret=JBSWY3DPEHPK3PXP',
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/2fa/enable',
    tag: 'auth',
    summary: 'Turn two-factor on with a current code; returns ten recovery codes',
    access: 'user',
    body: twoFactorCodeBody,
    status: 200,
    response: twoFactorEnableResponse,
    example: { request: { code: '492039' }, response: { recoveryCodes: ['k2m4-9qzt', 'x7c1-p0aa'] } },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/auth/2fa/disable',
    tag: 'auth',
    summary: 'Turn two-factor off with a current code or a recovery code',
    access: 'user',
    body: twoFactorDisableBody,
    status: 200,
    response: messageResponse,
    example: { request: { otp: '492039' } },
    errors: [429],
  },
  // --- billing (spec 7) ------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/spend-credit',
    tag: 'billing',
    summary:
      'Spend one mix or mastering credit (or a crown) for a download, once per idempotencyKey; a mastering download lists the versions and formats it delivered (one spend for all)',
    access: 'user',
    body: spendCreditBody,
    status: 200,
    response: spendCreditResponse,
    example: {
      request: {
        type: 'mastering',
        idempotencyKey: 'dl-7f3a9c1e',
        versions: ['main', 'instrumental'],
        formats: ['wav', 'mp3'],
      },
      response: { success: true, message: 'Download ready', user: EXAMPLE_USER },
    },
    errors: [402, 403],
  },
  {
    method: 'post',
    path: '/api/spend-album',
    tag: 'billing',
    summary:
      'Spend one mastering credit or crown per track for an album download (credits first, then crowns), once per idempotencyKey; records the album, its tracks, formats and whether the continuous file was made. Not enough for every track: nothing is spent',
    access: 'user',
    body: spendAlbumBody,
    status: 200,
    response: spendAlbumResponse,
    example: {
      request: {
        idempotencyKey: 'album-3c9e21aa',
        album: {
          name: 'First Record',
          tracks: [{ trackId: 41, title: 'Opening' }, { title: 'Ballad' }, { trackId: 43, title: 'Single' }],
          formats: ['wav', 'mp3'],
          continuous: true,
        },
      },
      response: { success: true, message: 'Used 3 mastering credits', user: EXAMPLE_USER, charged: 3 },
    },
    errors: [402, 403, 404, 409],
  },
  {
    method: 'post',
    path: '/api/purchase-crowns',
    tag: 'billing',
    summary: 'Buy crowns with the saved card (subscribers only); totalCost in cents',
    access: 'user',
    body: purchaseCrownsBody,
    status: 200,
    response: purchaseCrownsResponse,
    example: {
      request: { amount: 20, idempotencyKey: 'crowns-5b1e77d0' },
      response: { totalCost: 1000, user: EXAMPLE_USER },
    },
    errors: [402, 403],
  },
  {
    method: 'post',
    path: '/api/create-checkout-session',
    tag: 'billing',
    summary: "Start a subscription checkout; the browser navigates to the answer's url",
    access: 'user',
    body: checkoutSessionBody,
    status: 200,
    response: checkoutSessionResponse,
    example: {
      request: { lookup_key: 'pro_plan' },
      response: { url: 'https://checkout.stripe.com/c/pay/cs_test_a1b2' },
    },
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/auth/change-subscription',
    tag: 'billing',
    summary: 'Upgrade, downgrade (next cycle) or cancel (end of period) the subscription',
    access: 'user',
    body: changeSubscriptionBody,
    status: 200,
    response: messageResponse,
    example: { request: { type: 'upgrade', plan: 'unlimited' } },
    errors: [402, 409],
  },
  {
    method: 'get',
    path: '/api/billing/payment-methods',
    tag: 'billing',
    summary: 'The saved cards (brand and last four digits only)',
    access: 'user',
    status: 200,
    response: paymentMethodsResponse,
    example: { response: { methods: [{ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }] } },
  },
  {
    method: 'post',
    path: '/api/admin/billing/advance-cycle',
    tag: 'billing',
    summary: "Start a user's next billing cycle on the local test provider",
    access: 'admin',
    body: advanceCycleBody,
    status: 200,
    response: z.object({ message: z.string(), user: publicUser }),
    example: { request: { userId: 7 } },
    errors: [409],
  },
  {
    method: 'post',
    path: '/api/stripe/webhook',
    tag: 'billing',
    summary: 'Stripe events, verified by their signature and applied once (Stripe only)',
    access: 'signature',
    bodyType: 'application/octet-stream',
    status: 200,
    response: webhookAck,
    example: { response: { received: true, duplicate: false } },
  },
  {
    method: 'get',
    path: '/billing/checkout/:id',
    tag: 'local test provider',
    summary: 'Hosted checkout page of the local test provider (only without Stripe)',
    access: 'public',
    params: idParam,
    status: 200,
    responseType: 'text/html',
    errors: [404],
  },
  {
    method: 'post',
    path: '/billing/checkout/:id',
    tag: 'local test provider',
    summary: 'Card form of the local test provider; 303 to the account page when paid',
    access: 'public',
    params: idParam,
    bodyType: 'application/x-www-form-urlencoded',
    status: 303,
    errors: [402, 404],
  },
  {
    method: 'get',
    path: '/billing/checkout/:id/authenticate',
    tag: 'local test provider',
    summary: '3-D Secure confirmation page of the local test provider',
    access: 'public',
    params: idParam,
    status: 200,
    responseType: 'text/html',
    errors: [404],
  },
  {
    method: 'post',
    path: '/billing/checkout/:id/authenticate',
    tag: 'local test provider',
    summary: 'Approve or fail the 3-D Secure confirmation; 303 to the account page when paid',
    access: 'public',
    params: idParam,
    bodyType: 'application/x-www-form-urlencoded',
    status: 303,
    errors: [402, 404],
  },
  // --- tracks (spec 7) -------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/tracks',
    tag: 'tracks',
    summary:
      'Upload a track: multipart fields type, name, duration and the file in `audio` (100 MB at most); a mixed track may carry its `arrangement` (JSON) so the mastering page can offer versions',
    access: 'user',
    body: uploadTrackFields,
    bodyType: 'multipart/form-data',
    status: 201,
    response: trackView,
    example: { request: { type: 'vocals', name: 'Lead vocal', duration: '0' }, response: EXAMPLE_TRACK },
    errors: [408, 413, 429],
  },
  {
    method: 'get',
    path: '/api/tracks',
    tag: 'tracks',
    summary: "The user's tracks, newest first, with the storage used and the quota",
    access: 'user',
    query: listTracksQuery,
    status: 200,
    response: trackList,
    example: {
      response: { tracks: [EXAMPLE_TRACK], nextCursor: null, usedBytes: 10584044, quotaBytes: 2147483648 },
    },
  },
  {
    method: 'get',
    path: '/api/tracks/:id',
    tag: 'tracks',
    summary: 'One track: name and audioUrl',
    access: 'user',
    params: trackIdParam,
    status: 200,
    response: trackView,
    example: { response: EXAMPLE_TRACK },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/tracks/:id',
    tag: 'tracks',
    summary: 'Delete a track and its audio',
    access: 'user',
    params: trackIdParam,
    status: 204,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/tracks/:id/audio',
    tag: 'tracks',
    summary: 'The audio bytes (Range and If-None-Match supported; never spends a credit)',
    access: 'user',
    params: trackIdParam,
    status: 200,
    responseType: 'audio/*',
    errors: [404, 416],
  },
  // --- mixer sessions --------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/sessions',
    tag: 'sessions',
    summary: "The user's saved mixer sessions, newest first",
    access: 'user',
    query: listSessionsQuery,
    status: 200,
    response: sessionList,
  },
  {
    method: 'get',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'One saved mixer session with its clips',
    access: 'user',
    params: sessionIdParam,
    status: 200,
    response: sessionView,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/sessions',
    tag: 'sessions',
    summary: 'Save a mixer arrangement',
    access: 'user',
    body: sessionBody,
    status: 201,
    response: sessionView,
    example: { request: EXAMPLE_SESSION },
  },
  {
    method: 'put',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'Replace a saved mixer arrangement',
    access: 'user',
    params: sessionIdParam,
    body: sessionBody,
    status: 200,
    response: sessionView,
    example: { request: EXAMPLE_SESSION },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/sessions/:id',
    tag: 'sessions',
    summary: 'Delete a saved mixer session',
    access: 'user',
    params: sessionIdParam,
    status: 204,
    errors: [404],
  },
  // --- library (issue 30) ---------------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/library',
    tag: 'library',
    summary:
      "The user's uploads, mixes, saved sessions and paid masters, newest first; `q` finds words in names (and a master's preset, genre and reference)",
    access: 'user',
    query: libraryQuery,
    status: 200,
    response: libraryList,
  },
  {
    method: 'put',
    path: '/api/library/:kind/:id',
    tag: 'library',
    summary: 'Rename a track (upload or mix), a saved session or a master',
    access: 'user',
    params: libraryItemParams,
    body: renameBody,
    status: 204,
    example: { request: { name: 'Friday night take' } },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/api/library/:kind/:id',
    tag: 'library',
    summary:
      'Delete a track, a saved session or a master with its stored files (409 for an upload a mix or session still uses)',
    access: 'user',
    params: libraryItemParams,
    status: 204,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/masters',
    tag: 'library',
    summary:
      "Keep a paid master's downloaded files for 30 days: fields spendKey (the spend's idempotency key) and meta (JSON), then the files in `file` parts; what was paid for is read from the ledger",
    access: 'user',
    body: keepMasterFields,
    bodyType: 'multipart/form-data',
    status: 201,
    response: z.object({ id: z.number() }),
    errors: [404, 409, 413],
  },
  {
    method: 'get',
    path: '/api/masters/:id/files/:index',
    tag: 'library',
    summary: 'One kept file of a paid master, while it is kept (never spends a credit or crown)',
    access: 'user',
    params: masterFileParams,
    status: 200,
    responseType: 'application/octet-stream',
    errors: [404, 410],
  },
  // --- admin and contact (spec 7) --------------------------------------------------------------------
  {
    method: 'get',
    path: '/api/admin/stats',
    tag: 'admin',
    summary: 'Dashboard figures (admins with two-factor on)',
    access: 'admin',
    status: 200,
    response: adminStats,
    example: {
      response: {
        totalUsers: 120,
        newUsersToday: 3,
        newUsersThisWeek: 11,
        newUsersThisMonth: 40,
        subscribedUsers: 30,
        freeUsers: 90,
        recentRegistrations: [
          {
            id: 7,
            username: 'ada',
            email: 'ada@example.com',
            hasSubscription: true,
            createdAt: '2026-01-05T10:00:00.000Z',
          },
        ],
      },
    },
  },
  {
    method: 'post',
    path: '/api/client-errors',
    tag: 'service',
    summary: 'A browser error (uncaught, worker crash, decode failure): logged and counted, 8 KB at most',
    access: 'public',
    body: clientErrorReport,
    status: 204,
    example: {
      request: {
        kind: 'decode-failure',
        message: 'EncodingError: Unable to decode audio data',
        route: '/mastering',
      },
    },
    errors: [413, 429],
  },
  {
    method: 'post',
    path: '/api/contact',
    tag: 'contact',
    summary: 'Send a message to support',
    access: 'public',
    body: contactBody,
    status: 200,
    response: messageResponse,
    example: {
      request: { name: 'Ada', email: 'ada@example.com', subject: 'Mastering', message: 'How loud is Loud?' },
    },
    errors: [429],
  },
];
