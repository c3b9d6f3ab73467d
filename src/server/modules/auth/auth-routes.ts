import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forgotPasswordBody, loginBody, registerBody, resetPasswordBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { badRequest } from '../../errors';
import { clearSessionCookie, requireUser, sessionTokenOf, setSessionCookie } from '../../http/auth-context';
import { clientKey } from '../../http/client-address';
import type { DeviceCookies } from '../../http/device-cookie';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { AuthService } from './auth-service';
import type { EmailVerification } from './email-verification';
import { loginLimits } from './login-limits';
import type { SessionService } from './session-service';
import { toPublicUser } from './user-view';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

export interface AuthRouteDeps {
  auth: AuthService;
  verification: EmailVerification;
  sessions: SessionService;
  limiter: RateLimiter;
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
    const { user, token } = await d.auth.register(body);
    // The account exists either way; a lost mail is sent again from Settings.
    await d.verification.send(user).catch((err) => req.log.error({ err }, 'verification mail not sent'));
    signedIn(reply, token);
    return reply.code(201).send({ ...toPublicUser(user), authToken: token });
  });

  app.post('/api/auth/login', async (req, reply) => {
    const body = parse(loginBody, req.body);
    const attempt = await limits.admit(req, body.email);
    const { user, token } = await d.auth.login(body);
    await attempt.succeeded();
    if (req.sessionToken) await d.sessions.revoke(req.sessionToken);
    signedIn(reply, token);
    if (!attempt.knownDevice) d.devices.set(reply, user.email);
    return { ...toPublicUser(user), authToken: token };
  });

  app.post('/api/auth/logout', async (req, reply) => {
    const token = sessionTokenOf(req);
    if (token) await d.sessions.revoke(token);
    clearSessionCookie(reply, d.secureCookies);
    return { message: 'You have been logged out successfully.' };
  });

  app.post('/api/auth/forgot-password', async (req) => {
    await limitByIp(req, 'forgot', 10, FIFTEEN_MINUTES);
    const { email } = parse(forgotPasswordBody, req.body);
    // At most 3 mails an hour to one address; beyond that the answer is the same, so nothing leaks.
    if (await d.limiter.hit(`forgot:email:${email.toLowerCase()}`, 3, HOUR))
      await d.auth.requestPasswordReset(email);
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
