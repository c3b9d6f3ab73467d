import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * What both browser audio harnesses (audio-harness/ for mastering, audio-harness-mix/ for mix and codecs)
 * share: their entry points bundled with esbuild into a temporary folder and served on 127.0.0.1 with one
 * page that loads `/harness.js`. Cross-origin isolated (COOP/COEP) like the app, so performance.now() is
 * precise.
 */
export interface ServedHarness {
  url: string;
  close(): Promise<void>;
}

export interface HarnessBuild {
  /** The page's title, and the temporary build folder's prefix. */
  name: string;
  /** esbuild entry points by output name; one of them must be `harness` (the page's script). */
  entryPoints: Record<string, string>;
  plugins?: Plugin[];
  /** A URL path served from a file outside the build folder (or undefined to look in the build folder). */
  fileFor?: (path: string) => string | undefined;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

const page = (
  title: string,
) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head>
<body><script type="module" src="/harness.js"></script></body></html>`;

export const serveHarness = async ({
  name,
  entryPoints,
  plugins = [],
  fileFor,
}: HarnessBuild): Promise<ServedHarness> => {
  const out = await mkdtemp(join(tmpdir(), `${name.replaceAll(' ', '-')}-`));
  await build({
    entryPoints,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: out,
    sourcemap: 'linked',
    logLevel: 'error',
    plugins,
  });
  const html = page(name);
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const headers = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    };
    try {
      if (path === '/' || path === '/index.html') {
        res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(html);
        return;
      }
      const file = fileFor?.(path) ?? join(out, basename(path));
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, headers).end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(out, { recursive: true, force: true });
    },
  };
};
