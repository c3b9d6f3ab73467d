import type { FastifyInstance } from 'fastify';
import { CLIENT_ERROR_LIMITS, clientErrorReport } from '../../../shared/api/client-errors';
import { parse } from '../../http/validate';
import { enforceLimit, type RateLimiter } from '../../rate-limit/limiter';

/** Reports are limited per client address (CLIENT_ERROR_RATE_LIMIT): a page in a loop must not flood the log. */
const WINDOW_MS = 10 * 60 * 1000;

/**
 * What could still identify someone in an error text: email addresses and long tokens (session ids, reset
 * tokens, secrets pasted into a URL). Replaced before anything is logged.
 */
const PERSONAL = [/[^\s@"'<>()]+@[^\s@"'<>()]+\.[A-Za-z]{2,}/g, /\b[A-Za-z0-9_-]{32,}\b/g];
export const scrub = (text: string): string => PERSONAL.reduce((t, re) => t.replace(re, '[redacted]'), text);

/**
 * POST /api/client-errors: the browser's uncaught errors, worker crashes and decode failures, logged and
 * counted. Size-capped (8 KB), rate-limited per address, and never tied to the signed-in user.
 */
export async function clientErrorRoutes(
  app: FastifyInstance,
  d: { limiter: RateLimiter; perTenMinutes: number },
) {
  app.post('/api/client-errors', { bodyLimit: CLIENT_ERROR_LIMITS.bodyBytes }, async (req, reply) => {
    await enforceLimit(d.limiter, `client-errors:ip:${req.ip}`, d.perTenMinutes, WINDOW_MS);
    const report = parse(clientErrorReport, req.body);
    req.log.warn(
      {
        clientError: {
          kind: report.kind,
          route: report.route,
          message: scrub(report.message),
          stack: report.stack === undefined ? undefined : scrub(report.stack),
        },
      },
      'client error',
    );
    app.metrics?.clientError(report.kind);
    return reply.code(204).send();
  });
}
