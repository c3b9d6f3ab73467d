import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  forgotPasswordBody,
  loginBody,
  logoutBody,
  registerBody,
  resetPasswordBody,
} from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { AppError, badRequest } from '../../errors';
import { clearSessionCookie, requireUser, sessionTokenOf, setSessionCookie } from '../../http/auth-context';
import { clientKey } from '../../http/client-address';
import type { DeviceCookies } from '../../http/device-cookie';
import { parse } from '../../http/validate';
import type { MailBudget } from '../../mail/address-budget';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { AuthService } from './auth-service';
import type { EmailVerification } from './email-verification';
import { loginLimits } from './login-limits';
import type { SessionOrigin, SessionService } from './session-service';
import { toPublicUser } from './user-view';

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** What a new session records of the browser that signed in (the Settings list shows it). */
const originOf = (req: FastifyRequest): SessionOrigin => ({
  userAgent: req.headers['user-agent'],
  address: req.ip,
  // A fresh session id at every login (no session fixation): the one this browser held ends with it.
  replacesToken: req.sessionToken,
});

export interface AuthRouteDeps {
  auth: AuthService;
  verification: EmailVerification;
  sessions: SessionService;
  limiter: RateLimiter;
  budget: MailBudget;
  devices: DeviceCookies;
  authRateLimit: number;
  secureCookies: boolean;
}

/** DELETE /api/auth/account: the account's email typed again. */
export const deleteAccountBody = z.object({ confirm: z.string().max(254) });

export async function authRoutes(app: FastifyInstance, d: AuthRouteDeps) {
  const limitByIp = (req: FastifyRequest, bucket: string, limit: number, windowMs: number) =>
    enforceLimit(d.limiter, `${bucket}:ip:${clientKey(req.ip)}`, limit, windowMs);
  const limits = loginLimits({ limiter: d.limiter, devices: d.devices, authRateLimit: d.authRateLimit });

  const signedIn = (reply: Parameters<typeof setSessionCookie>[0], token: string) =>
    setSessionCookie(reply, token, d.sessions.ttlSeconds, d.secureCookies);

  app.get('/api/auth/user', async (req) => toPublicUser(requireUser(req)));

  app.post('/api/auth/register', async (req, reply) => {
    await limitByIp(req, 'auth', d.authRateLimit, FIFTEEN_MINUTES);
    const body = parse(registerBody, req.body);
    const { user, token } = await d.auth.register(body, originOf(req));
    // The account exists either way; a lost mail is sent again from Settings. Past the address's mail
    // limit (someone registering it again and again) no mail goes: that is the limit working, not a fault.
    await d.verification.send(user).catch((err) => {
      if (err instanceof AppError && err.status === 429)
        req.log.warn(`confirmation mail for account ${user.id} not sent: its address's limit is reached`);
      else req.log.error({ err }, 'verification mail not sent');
    });
    signedIn(reply, token);
    return reply.code(201).send({ ...toPublicUser(user), authToken: token });
  });

  app.post('/api/auth/login', async (req, reply) => {
    const body = parse(loginBody, req.body);
    const attempt = await limits.admit(req, body.email);
    const { user, token } = await d.auth.login(body, originOf(req));
    await attempt.succeeded();
    signedIn(reply, token);
    if (!attempt.knownDevice) d.devices.set(reply, user.email);
    return { ...toPublicUser(user), authToken: token };
  });

  app.post('/api/auth/logout', async (req, reply) => {
    const { all } = parse(logoutBody, req.body);
    const token = sessionTokenOf(req);
    // {all: true} ends every session of the account ("sign out everywhere"), this one included.
    if (all && req.user) await d.sessions.revokeAll(req.user.id);
    else if (token) await d.sessions.revoke(token);
    clearSessionCookie(reply, d.secureCookies);
    return { message: all ? MESSAGES.sessionsEnded : 'You have been logged out successfully.' };
  });

  app.post('/api/auth/forgot-password', async (req) => {
    await limitByIp(req, 'forgot', 10, FIFTEEN_MINUTES);
    const { email } = parse(forgotPasswordBody, req.body);
    // Within the address's mail budget (decision 170); beyond it the answer is the same, so nothing leaks,
    // and the budget is counted whether or not the account exists (the same work either way).
    if ((await d.budget.take(email, 'reset')).allowed) await d.auth.requestPasswordReset(email);
    return { message: MESSAGES.resetSent };
  });

  app.post('/api/auth/reset-password', async (req) => {
    await limitByIp(req, 'reset', 20, FIFTEEN_MINUTES);
    const { token, newPassword } = parse(resetPasswordBody, req.body);
    const { twoFactorRemoved } = await d.auth.resetPassword(token, newPassword);
    return { message: twoFactorRemoved ? MESSAGES.resetDoneTwoFactorRemoved : MESSAGES.resetDone };
  });

  app.delete('/api/auth/account', async (req, reply) => {
    const user = requireUser(req);
    const { confirm } = parse(deleteAccountBody, req.body);
    if (confirm.trim().toLowerCase() !== user.email.toLowerCase()) {
      throw badRequest('Type your email address exactly to confirm the deletion', 'confirmation_mismatch');
    }
    await d.auth.deleteAccount(user);
    clearSessionCookie(reply, d.secureCookies);
    return { message: 'Your account and all its data have been deleted.' };
  });
}
