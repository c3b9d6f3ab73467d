import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

const HSTS_MAX_AGE = 31536000;
const HSTS = `max-age=${HSTS_MAX_AGE}; includeSubDomains`;

/**
 * Security headers on every response, computed once (they do not depend on the request) and added as Fastify
 * reply headers. Running helmet's middleware per request (a dozen `setHeader` calls on the raw response, each
 * validated by Node) cost ~15% of the throughput of GET /api/auth/user under load (bench/load.ts).
 *
 * Pages, assets and the hosted checkout get helmet's document headers. API answers (/api/...) are JSON or
 * media, never a document to render, so they get the OWASP REST set instead (decision 082): a CSP that allows
 * nothing at all, nosniff, no framing, same-origin resource policy, HSTS in production. Routes may set
 * stricter headers of their own (track streams add a sandbox).
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { production: boolean }): void {
  const page = pageSecurityHeaders(opts);
  const api = apiSecurityHeaders(opts);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? api : page);
    done();
  });
}

/** What an API answer carries: nothing in it may run, load, be framed or be read by another origin. */
function apiSecurityHeaders(opts: { production: boolean }): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    ...(opts.production ? { 'strict-transport-security': HSTS } : {}),
  };
}

/** The headers helmet sets on documents with our policy, lower-cased names to values. */
function pageSecurityHeaders(opts: { production: boolean }): Record<string, string> {
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
    hsts: opts.production ? { maxAge: HSTS_MAX_AGE, includeSubDomains: true } : false,
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
