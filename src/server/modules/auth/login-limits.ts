import type { FastifyRequest } from 'fastify';
import { clientKey } from '../../http/client-address';
import type { DeviceCookies } from '../../http/device-cookie';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords allowed per (email, client) and per signed-in-before browser in 15 minutes. */
export const FAILED_LOGINS_PER_CLIENT = 10;
/**
 * Wrong passwords allowed per email from all browsers it has not seen, in 15 minutes: reachable only by
 * guessing from many addresses, and then browsers that signed in before still get in.
 */
export const FAILED_LOGINS_PER_EMAIL = 100;

export interface LoginLimitDeps {
  limiter: RateLimiter;
  devices: DeviceCookies;
  /** Login and register attempts per client address (AUTH_RATE_LIMIT). */
  authRateLimit: number;
}

/**
 * Where a login attempt is counted. Attempts are counted before the password is checked (so parallel
 * guesses cannot overtake the count) and the failure counter of the client is forgotten after a success.
 * A browser carrying a device cookie for this email is counted only in its own bucket: attackers sharing
 * its address (or guessing from anywhere else) cannot spend its budget.
 */
export function loginLimits(d: LoginLimitDeps) {
  return {
    /** Throws the 429 when over a limit; returns what to do after the password matched. */
    async admit(
      req: FastifyRequest,
      email: string,
    ): Promise<{ succeeded(): Promise<void>; knownDevice: boolean }> {
      const normalized = email.toLowerCase();
      const deviceId = d.devices.read(req, normalized);
      if (deviceId) {
        const key = `login-fail:device:${deviceId}`;
        await enforceLimit(d.limiter, key, FAILED_LOGINS_PER_CLIENT, LOGIN_WINDOW_MS);
        return { knownDevice: true, succeeded: () => d.limiter.reset(key) };
      }
      const client = clientKey(req.ip);
      // The same bucket as register's (auth-routes.ts, limitByIp 'auth').
      await enforceLimit(d.limiter, `auth:ip:${client}`, d.authRateLimit, LOGIN_WINDOW_MS);
      const pairKey = `login-fail:email-client:${normalized}:${client}`;
      await enforceLimit(d.limiter, pairKey, FAILED_LOGINS_PER_CLIENT, LOGIN_WINDOW_MS);
      await enforceLimit(
        d.limiter,
        `login-fail:email:${normalized}`,
        FAILED_LOGINS_PER_EMAIL,
        LOGIN_WINDOW_MS,
      );
      return { knownDevice: false, succeeded: () => d.limiter.reset(pairKey) };
    },
  };
}
