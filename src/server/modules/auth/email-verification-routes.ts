import type { FastifyInstance } from 'fastify';
import { verifyEmailBody } from '../../../shared/api/auth';
import { MESSAGES } from '../../../shared/messages';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { EmailVerification } from './email-verification';

const HOUR = 60 * 60 * 1000;
/** Confirmation mails one account may ask for in an hour (the one sent at registration is not counted). */
export const VERIFICATION_MAILS_PER_HOUR = 3;

/** Confirming the signed-in account's email address: a new link on demand, and redeeming one. */
export async function emailVerificationRoutes(
  app: FastifyInstance,
  d: { verification: EmailVerification; limiter: RateLimiter },
) {
  app.post('/api/auth/verify-email/send', async (req) => {
    const user = requireUser(req);
    await enforceLimit(d.limiter, `verify-mail:user:${user.id}`, VERIFICATION_MAILS_PER_HOUR, HOUR);
    await d.verification.send(user);
    return { message: MESSAGES.verificationSent };
  });

  app.post('/api/auth/verify-email', async (req) => {
    const user = requireUser(req);
    // Tokens are 256-bit, but guessing should cost something all the same.
    await enforceLimit(d.limiter, `verify:user:${user.id}`, 20, HOUR);
    const { token } = parse(verifyEmailBody, req.body);
    await d.verification.verify(user, token);
    return { message: MESSAGES.emailVerified };
  });
}
