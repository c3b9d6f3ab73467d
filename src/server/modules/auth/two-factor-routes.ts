import type { FastifyInstance } from 'fastify';
import { twoFactorCodeBody, twoFactorDisableBody } from '../../../shared/api/auth';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { TwoFactorService } from './two-factor-service';

/** Enrolment and removal of TOTP two-factor authentication for the signed-in user. */
export async function twoFactorRoutes(
  app: FastifyInstance,
  d: { twoFactor: TwoFactorService; limiter: RateLimiter },
) {
  // Six digits are guessable at scale: code attempts are limited per user.
  const limitCodes = async (userId: number) => {
    await enforceLimit(d.limiter, `2fa:user:${userId}`, 10, 15 * 60 * 1000);
  };

  app.post('/api/auth/2fa/setup', async (req) => d.twoFactor.setup(requireUser(req)));

  app.post('/api/auth/2fa/enable', async (req) => {
    const user = requireUser(req);
    await limitCodes(user.id);
    const { code } = parse(twoFactorCodeBody, req.body);
    return { recoveryCodes: await d.twoFactor.enable(user, code) };
  });

  app.post('/api/auth/2fa/disable', async (req) => {
    const user = requireUser(req);
    await limitCodes(user.id);
    const body = parse(twoFactorDisableBody, req.body);
    await d.twoFactor.disable(user, body);
    return { message: 'Two-factor authentication is off.' };
  });
}
