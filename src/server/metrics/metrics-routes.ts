import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { createMetrics, type Metrics } from './metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Spend answers by status: which refusal the user met (the route answers 200 only when a credit is spent). */
const SPEND_OUTCOMES: Record<number, string> = {
  200: 'spent',
  400: 'invalid',
  401: 'signed_out',
  402: 'no_credits',
  403: 'subscription_required',
  429: 'rate_limited',
};

const jsonOf = (payload: unknown): Record<string, unknown> | undefined => {
  if (typeof payload !== 'string') return undefined;
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * A request a proxy forwarded carries X-Forwarded-For (HAProxy's `option forwardfor`) or Forwarded. Scrapers
 * reach each instance directly and send neither, so /metrics answers such a request as if it did not exist:
 * whatever spelling of the path got past the proxy's own deny rule (`/%6detrics`, `/./metrics`), the app's
 * router is the one that decided it means /metrics, so the check lives here. It needs no TRUST_PROXY: with
 * no proxy trusted the header is the client's own words, and refusing it costs a scraper nothing.
 */
const cameThroughProxy = (req: FastifyRequest): boolean =>
  req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;

/** Adds a hook to one route only, so the routes the metrics do not concern pay nothing for it. */
function addRouteHook(
  route: RouteOptions,
  name: 'onSend' | 'onResponse',
  hook: (...args: never[]) => unknown,
) {
  const existing = route[name];
  (route as unknown as Record<string, unknown>)[name] = [...(existing ? [existing].flat() : []), hook];
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN (`Authorization: Bearer …`).
 * Without a token configured the route answers 404 and no metrics hook runs. With one, a single onResponse
 * hook feeds the request histogram; uploads, spends and webhooks get hooks on their own routes only (added
 * as the routes register, so register this before them).
 */
export function registerMetrics(
  app: FastifyInstance,
  opts: { token: string | undefined },
): Metrics | undefined {
  const expected = opts.token ? digest(opts.token) : undefined;
  const metrics = expected ? createMetrics() : undefined;
  app.decorate('metrics', metrics);

  app.get('/metrics', async (req, reply) => {
    if (!expected || !metrics || cameThroughProxy(req))
      return reply.code(404).send({ message: 'Not found', code: 'not_found' });
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer')
        .send({ message: 'A valid metrics token is required', code: 'unauthorized' });
    }
    return reply
      .header('Cache-Control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });
  if (!metrics) return undefined;
  app.addHook('onClose', (_app, done) => {
    metrics.close();
    done();
  });

  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeRequest(
      req.method,
      req.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.addHook('onRoute', (route) => {
    const post = [route.method].flat().includes('POST');
    if (!post) return;
    if (route.url === '/api/tracks') {
      addRouteHook(
        route,
        'onSend',
        (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: () => void) => {
          if (reply.statusCode === 201) {
            const size = jsonOf(payload)?.size;
            if (typeof size === 'number') metrics.uploadStored(size);
          }
          done();
        },
      );
    } else if (route.url === '/api/spend-credit') {
      addRouteHook(route, 'onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
        const type = (req.body as { type?: unknown } | undefined)?.type;
        metrics.spendAnswered(
          type === 'mix' || type === 'mastering' ? type : 'invalid',
          SPEND_OUTCOMES[reply.statusCode] ?? (reply.statusCode >= 500 ? 'error' : 'other'),
        );
        done();
      });
    } else if (route.url === '/api/stripe/webhook') {
      addRouteHook(
        route,
        'onSend',
        (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: () => void) => {
          const status = reply.statusCode;
          const body = status === 200 ? jsonOf(payload) : undefined;
          const outcome =
            status === 200
              ? body?.duplicate
                ? 'duplicate'
                : body?.ignored
                  ? 'ignored'
                  : 'applied'
              : status < 500
                ? 'rejected'
                : 'failed';
          metrics.webhookAnswered('stripe', outcome);
          done();
        },
      );
    }
  });
  return metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Undefined when METRICS_TOKEN is not set. */
    metrics: Metrics | undefined;
  }
}
