import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * Serves a page that bundles the audio engine's mix, codec and peaks code and its workers (built here with
 * esbuild), so browser tests and benchmarks exercise the real modules in real Chromium without the app.
 * Cross-origin isolated (COOP/COEP) like the app, so performance.now() is precise.
 */
const here = resolve(import.meta.dirname);
const root = resolve(here, '..', '..');
const require = createRequire(join(root, 'package.json'));

const WORKERS = {
  'encode-worker': join(root, 'src/audio/workers/encode-worker.ts'),
  'peaks-worker': join(root, 'src/audio/workers/peaks-worker.ts'),
  'mix-worker': join(root, 'src/audio/workers/mix-worker.ts'),
};
export type HarnessWorker = keyof typeof WORKERS;

/** Vite's `?url` imports: the file is served under /assets and the import is its URL. */
const assetUrls = (assets: Map<string, string>): Plugin => ({
  name: 'asset-url',
  setup(b) {
    b.onResolve({ filter: /\?url$/ }, (args) => {
      const file = require.resolve(args.path.replace(/\?url$/, ''), { paths: [args.resolveDir] });
      return { path: file, namespace: 'asset-url' };
    });
    b.onLoad({ filter: /.*/, namespace: 'asset-url' }, (args) => {
      const name = basename(args.path);
      assets.set(name, args.path);
      return { contents: `export default ${JSON.stringify(`/assets/${name}`)};`, loader: 'js' };
    });
  },
});

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>mix harness</title><link rel="icon" href="data:,"></head>
<body><script type="module" src="/harness.js"></script></body></html>`;

export interface MixHarness {
  url: string;
  close(): Promise<void>;
}

/** Builds the page and the named workers (all by default) and serves them on 127.0.0.1. */
export const startMixHarness = async (
  workers: readonly HarnessWorker[] = Object.keys(WORKERS) as HarnessWorker[],
): Promise<MixHarness> => {
  const out = await mkdtemp(join(tmpdir(), 'mix-harness-'));
  const assets = new Map<string, string>();
  await build({
    entryPoints: {
      harness: join(here, 'harness-entry.ts'),
      ...Object.fromEntries(workers.map((w) => [w, WORKERS[w]])),
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: out,
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [assetUrls(assets)],
  });
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const headers = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store',
    };
    try {
      if (path === '/' || path === '/index.html') {
        res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      const asset = path.startsWith('/assets/') ? assets.get(path.slice('/assets/'.length)) : undefined;
      const file = asset ?? join(out, basename(path));
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
