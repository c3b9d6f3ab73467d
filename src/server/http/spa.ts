import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built React app. Hashed assets are immutable; every other GET that is not an API call or a
 * missing file gets index.html so client routes work on reload. Missing /assets/* stay 404s.
 */
export async function registerSpa(
  app: FastifyInstance,
  webRoot: string | undefined,
  opts: { serveSourceMaps: boolean },
) {
  // Source maps hand out the original source; in production they stay on disk (for the operator's error
  // tracker) and are never served. The bundles still name them, so devtools just get a 404.
  const isSourceMap = (url: string) => url.endsWith('.map');
  const indexPath = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const hasWeb = indexPath !== undefined && fs.existsSync(indexPath);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot!,
      wildcard: true,
      index: 'index.html',
      redirect: false,
      allowedPath: (pathName) => opts.serveSourceMaps || !isSourceMap(pathName),
      setHeaders: (reply, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        reply.header('Cross-Origin-Resource-Policy', 'same-origin');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const wantsPage =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      !url.startsWith('/assets/') &&
      !isSourceMap(url);
    if (!hasWeb || !wantsPage) return reply.code(404).send({ message: 'Not found', code: 'not_found' });
    return reply
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(indexPath!));
  });
}
