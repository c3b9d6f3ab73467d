import type { FastifyInstance } from 'fastify';
import { twoFactorCodeBody, twoFactorDisableBody } from '../../../shared/api/auth';
import type { Db } from '../../db/client';
import { requireUser } from '../../http/auth-context';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';
import type { SessionService } from './session-service';
import type { TwoFactorService } from './two-factor-service';

/**
 * Enrolment and removal of TOTP two-factor authentication for the signed-in user. Either ends the account's
 * other sessions, in the same transaction: a session opened without the second factor must not outlive its
 * turning on, and turning it off is a change only this session has vouched for.
 */
export async function twoFactorRoutes(
  app: FastifyInstance,
  d: { twoFactor: TwoFactorService; sessions: SessionService; limiter: RateLimiter },
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
    const endOthers = (tx: Db) => d.sessions.revokeOthers(user.id, req.sessionToken, tx);
    return { recoveryCodes: await d.twoFactor.enable(user, code, endOthers) };
  });

  app.post('/api/auth/2fa/disable', async (req) => {
    const user = requireUser(req);
    await limitCodes(user.id);
    const body = parse(twoFactorDisableBody, req.body);
    const endOthers = (tx: Db) => d.sessions.revokeOthers(user.id, req.sessionToken, tx);
    await d.twoFactor.disable(user, body, endOthers);
    return { message: 'Two-factor authentication is off.' };
  });
}
