import { z } from 'zod';
import { devBypassBody, publicConfig } from '../../../shared/api/config';
import type { Operation } from '../operation';

/** The service itself: health, metrics, configuration, the API document. */
const dependency = z.object({ status: z.enum(['ok', 'down']) });
const health = z.object({
  ok: z.literal(true),
  database: dependency.extend({ kind: z.enum(['pglite', 'postgres']) }),
  storage: dependency.extend({ kind: z.enum(['disk', 's3']) }),
  redis: dependency.optional(),
});
export const SERVICE_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'service',
    summary:
      'Readiness: database, storage and Redis (when configured) each reported (503 naming what is down, or code shutting_down while draining before a stop)',
    access: 'public',
    status: 200,
    response: health,
    example: {
      response: {
        ok: true,
        database: { status: 'ok', kind: 'postgres' },
        storage: { status: 'ok', kind: 's3' },
        redis: { status: 'ok' },
      },
    },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'service',
    summary:
      'Liveness: the process answers; checks nothing else (503 with code shutting_down while draining before a stop)',
    access: 'public',
    status: 200,
    response: z.object({ ok: z.literal(true) }),
    example: { response: { ok: true } },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/config',
    tag: 'service',
    summary: 'The whitelisted configuration the browser may see',
    access: 'public',
    status: 200,
    response: publicConfig,
    example: {
      response: { devMode: false, paymentProvider: 'stripe', demoPayments: false, maxUploadBytes: 104857600 },
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'service',
    summary: 'This document',
    access: 'public',
    status: 200,
    responseType: 'application/json',
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'service',
    summary: 'Prometheus metrics (`Authorization: Bearer METRICS_TOKEN`; 404 when no token is configured)',
    access: 'metrics',
    status: 200,
    responseType: 'text/plain',
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/api/dev/bypass',
    tag: 'service',
    summary: 'Checks the developer-bypass secret (404 unless developer mode is on)',
    access: 'public',
    body: devBypassBody,
    status: 200,
    response: z.object({ ok: z.literal(true) }),
    example: { request: { secret: 'the-configured-secret' }, response: { ok: true } },
    errors: [404],
  },
];
