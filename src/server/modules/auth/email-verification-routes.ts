import type { FastifyInstance } from 'fastify';
import { changeEmailBody, verifyEmailBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { EmailChange } from './email-change';
import type { EmailVerification } from './email-verification';

const HOUR = 60 * 60 * 1000;

/**
 * The signed-in account's email address: confirming it (a new link on demand, and redeeming one) and
 * changing it. How many links one address receives is bounded by the address's mail budget
 * (mail/address-budget.ts), whichever account or client asks.
 */
export async function emailVerificationRoutes(
  app: FastifyInstance,
  d: { verification: EmailVerification; emailChange: EmailChange; limiter: RateLimiter },
) {
  app.post('/api/auth/verify-email/send', async (req) => {
    const user = requireUser(req);
    await d.verification.send(user);
    return { message: MESSAGES.verificationSent };
  });

  app.post('/api/auth/verify-email', async (req) => {
    const user = requireUser(req);
    // Tokens are 256-bit, but guessing should cost something all the same.
    await enforceLimit(d.limiter, `verify:user:${user.id}`, 20, HOUR);
    const { token } = parse(verifyEmailBody, req.body);
    return { message: await d.verification.verify(user, token, req.sessionToken) };
  });

  app.post('/api/auth/email-change', async (req) => {
    const user = requireUser(req);
    // The current password is checked here: guesses from a stolen session are counted.
    await enforceLimit(d.limiter, `email-change:user:${user.id}`, 10, HOUR);
    const body = parse(changeEmailBody, req.body);
    return { message: await d.emailChange.request(user, body) };
  });
}
