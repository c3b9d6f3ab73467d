import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './openapi-document';
import { OPERATIONS } from './operations';

export interface RegisteredRoute {
  method: string;
  url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered on the app after registerApiDocs, HEAD twins left out (the OpenAPI test walks it). */
export const registeredRoutes = (app: FastifyInstance): RegisteredRoute[] => registered.get(app) ?? [];

/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of OPERATIONS. Register it before the routes so the
 * onRoute hook sees them all (it runs once per route at start, never per request).
 */
export function registerApiDocs(app: FastifyInstance, opts: { publicOrigin: string }) {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });
  let body: string | undefined;
  app.get('/api/openapi.json', async (_req, reply) => {
    body ??= JSON.stringify(buildOpenApiDocument(OPERATIONS, { serverUrl: opts.publicOrigin }));
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
