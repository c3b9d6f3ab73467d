import type { FastifyRequest } from 'fastify';

/** Query values that must never reach a log line (reset tokens arrive in the URL of the reset page). */
const SECRET_PARAMS = /([?&](?:token|bypass|secret|authToken)=)[^&#]*/gi;

export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');

/** Request logs carry method, path and status only: no bodies, cookies, tokens or passwords. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers["x-auth-token"]',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}
