import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import { forbidden } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request that carries a cookie must come from our own site: the browser's
 * Sec-Fetch-Site or Origin says where it came from. Requests without cookies (webhooks, API clients
 * using x-auth-token) have no ambient authority to abuse, so they pass.
 */
export function registerCsrfGuard(app: FastifyInstance, publicOrigin: string) {
  app.addHook('onRequest', async (req) => {
    if (SAFE_METHODS.has(req.method) || !req.headers.cookie) return;
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw forbidden(MESSAGES.crossSite);
    const origin = req.headers.origin;
    if (
      origin &&
      origin !== 'null' &&
      origin !== publicOrigin &&
      origin !== `${req.protocol}://${req.host}`
    ) {
      throw forbidden(MESSAGES.crossSite);
    }
    if (origin === 'null') throw forbidden(MESSAGES.crossSite);
  });
}
