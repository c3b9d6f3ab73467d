import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '../../shared/messages';

/** One dependency's answer: reachable or not, within CHECK_TIMEOUT_MS. */
type Status = 'ok' | 'down';

export interface HealthChecks {
  database: { kind: string; check(): Promise<unknown> };
  storage: { kind: string; check(): Promise<unknown> };
  /** Only when REDIS_URL is configured: the rate limits and upload slots of every instance live there. */
  redis?: { check(): Promise<unknown> };
  /** True once a graceful stop began (main.ts): both probes answer 503 so the load balancer moves away. */
  draining: () => boolean;
  log: (what: string, err: unknown) => void;
}

const SHUTTING_DOWN = { ok: false, message: MESSAGES.serviceUnavailable, code: 'shutting_down' } as const;

/** A hung dependency must not hang the probe: a load balancer's own timeout would read it as "no answer". */
const CHECK_TIMEOUT_MS = 3000;

async function probe(name: string, check: () => Promise<unknown>, log: HealthChecks['log']): Promise<Status> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (err) {
    log(`${name} health check failed`, err);
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/health (readiness): each dependency reported on its own, 503 when any is down, so an operator
 * sees which one. GET /api/health/live (liveness): the process answers, nothing else is checked, so a
 * database outage never makes an orchestrator restart healthy processes. Both answer 503 while the process
 * drains before a graceful stop: the only signal a load balancer polling them gets to stop sending.
 */
export function registerHealthRoutes(app: FastifyInstance, h: HealthChecks) {
  app.get('/api/health/live', async (_req, reply) =>
    h.draining() ? reply.code(503).send(SHUTTING_DOWN) : { ok: true },
  );

  app.get('/api/health', async (_req, reply) => {
    if (h.draining()) return reply.code(503).send(SHUTTING_DOWN);
    const [database, storage, redis] = await Promise.all([
      probe('database', h.database.check, h.log),
      probe('storage', h.storage.check, h.log),
      h.redis ? probe('redis', h.redis.check, h.log) : undefined,
    ]);
    const body = {
      ok: database === 'ok' && storage === 'ok' && redis !== 'down',
      database: { status: database, kind: h.database.kind },
      storage: { status: storage, kind: h.storage.kind },
      ...(redis ? { redis: { status: redis } } : {}),
    };
    if (body.ok) return body;
    const down = (['database', 'storage', 'redis'] as const).filter((k) => body[k]?.status === 'down');
    return reply.code(503).send({ ...body, message: `Unavailable: ${down.join(', ')}`, code: 'unavailable' });
  });
}
