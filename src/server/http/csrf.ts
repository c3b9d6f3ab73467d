import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../shared/messages';
import { type AppError, forbidden } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request that carries a cookie must come from our own site: the browser's
 * Sec-Fetch-Site or Origin says where it came from. Requests without cookies (webhooks, API clients
 * using x-auth-token) have no ambient authority to abuse, so they pass.
 */
export function registerCsrfGuard(app: FastifyInstance, publicOrigin: string) {
  // A plain callback hook: every request passes here, and most pass at once.
  app.addHook('onRequest', (req, _reply, done) => done(crossSiteRefusal(req, publicOrigin)));
}

function crossSiteRefusal(req: FastifyRequest, publicOrigin: string): AppError | undefined {
  if (SAFE_METHODS.has(req.method) || !req.headers.cookie) return undefined;
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return forbidden(MESSAGES.crossSite);
  const origin = req.headers.origin;
  if (origin === 'null') return forbidden(MESSAGES.crossSite);
  if (origin && origin !== publicOrigin && origin !== `${req.protocol}://${req.host}`) {
    return forbidden(MESSAGES.crossSite);
  }
  return undefined;
}
