import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every response. helmet decides them; they do not depend on the request, so helmet runs
 * once, here, and every request gets the resulting headers as Fastify reply headers. Running helmet's
 * middleware per request (a dozen `setHeader` calls on the raw response, each validated by Node) cost ~15%
 * of the throughput of GET /api/auth/user under load (bench/load.ts); @fastify/helmet, before that, also
 * rebuilt helmet per request.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { production: boolean }): void {
  const headers = securityHeaders(opts);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet sets with our policy, lower-cased names to values. */
export function securityHeaders(opts: { production: boolean }): Record<string, string> {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Cross-origin isolation: precise timers and SharedArrayBuffer for the audio meters.
    crossOriginEmbedderPolicy: { policy: 'require-corp' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    hsts: opts.production ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  applyHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}
