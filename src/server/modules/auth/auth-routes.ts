import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forgotPasswordBody, loginBody, registerBody, resetPasswordBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { badRequest, tooManyRequests } from '../../errors';
import { clearSessionCookie, requireUser, sessionTokenOf, setSessionCookie } from '../../http/auth-context';
import { parse } from '../../http/validate';
import type { RateLimiter } from '../../rate-limit/limiter';
import type { AuthService } from './auth-service';
import type { SessionService } from './session-service';
import { toPublicUser } from './user-view';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** Failed logins allowed per email in 15 minutes, whatever address they come from. */
const FAILED_LOGINS_PER_EMAIL = 10;

export interface AuthRouteDeps {
  auth: AuthService;
  sessions: SessionService;
  limiter: RateLimiter;
  authRateLimit: number;
  secureCookies: boolean;
}

const deleteAccountBody = z.object({ confirm: z.string().max(254) });

export async function authRoutes(app: FastifyInstance, d: AuthRouteDeps) {
  const limitByIp = async (req: FastifyRequest, bucket: string, limit: number, windowMs: number) => {
    if (!(await d.limiter.hit(`${bucket}:ip:${req.ip}`, limit, windowMs)))
      throw tooManyRequests(MESSAGES.tooManyRequests);
  };

  const signedIn = (reply: Parameters<typeof setSessionCookie>[0], token: string) =>
    setSessionCookie(reply, token, d.sessions.ttlSeconds, d.secureCookies);

  app.get('/api/auth/user', async (req) => toPublicUser(requireUser(req)));

  app.post('/api/auth/register', async (req, reply) => {
    await limitByIp(req, 'auth', d.authRateLimit, FIFTEEN_MINUTES);
    const body = parse(registerBody, req.body);
    const { user, token } = await d.auth.register(body);
    signedIn(reply, token);
    return reply.code(201).send({ ...toPublicUser(user), authToken: token });
  });

  app.post('/api/auth/login', async (req, reply) => {
    await limitByIp(req, 'auth', d.authRateLimit, FIFTEEN_MINUTES);
    const body = parse(loginBody, req.body);
    const emailKey = `login-fail:email:${body.email.toLowerCase()}`;
    if (!(await d.limiter.hit(emailKey, FAILED_LOGINS_PER_EMAIL, FIFTEEN_MINUTES))) {
      throw tooManyRequests(MESSAGES.tooManyRequests);
    }
    const { user, token } = await d.auth.login(body);
    await d.limiter.reset(emailKey);
    if (req.sessionToken) await d.sessions.revoke(req.sessionToken);
    signedIn(reply, token);
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
    await d.auth.resetPassword(token, newPassword);
    return { message: MESSAGES.resetDone };
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
